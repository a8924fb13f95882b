# expect: fail writes the per-stage orders by hand but interleaves the stages with d2lgpu.pipeline.schedule_ticks, which the exercise forbids
# hint: schedule_ticks|d2lgpu\.pipeline|helper|yourself|order helper|forbidden
import torch

from d2lgpu.pipeline import micro_batches, schedule_ticks


def _orders(n_stages, m):
    orders = []
    for k in range(n_stages):
        warm = min(n_stages - k - 1, m)
        order = [("F", i) for i in range(warm)]
        for i in range(m - warm):
            order += [("F", warm + i), ("B", i)]
        order += [("B", i) for i in range(m - warm, m)]
        orders.append(order)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    m, n_stages = len(xs), len(stages)
    orders = _orders(n_stages, m)
    inputs, outputs, losses = {}, {}, []
    # the orders are mine; the library only interleaves the stages, as the chapter's run_schedule does
    plan = sorted((s.start, s.stage, s.phase, s.micro_batch) for s in schedule_ticks(orders))
    for _, k, phase, i in plan:
        if phase == "forward":
            h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == n_stages - 1:
                out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
            inputs[k, i], outputs[k, i] = h, out
        else:
            out = outputs.pop((k, i))
            if k == n_stages - 1:
                out.backward()
                losses.append(out.detach())
            else:
                out.backward(inputs.pop((k + 1, i)).grad)
    return torch.stack(losses).sum()


answer = one_f_one_b_step
