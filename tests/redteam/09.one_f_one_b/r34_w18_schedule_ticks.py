# expect: fail writes its own orders but takes the global running order from d2lgpu.pipeline.schedule_ticks, as the chapter's run_schedule does (forbidden helper)
# hint: schedule_ticks|d2lgpu\.pipeline|helper|own
import torch


def _order(k, S, M):
    warm = min(S - k - 1, M)
    order = [("F", i) for i in range(warm)]
    f, b = warm, 0
    while f < M:
        order += [("F", f), ("B", b)]
        f, b = f + 1, b + 1
    order += [("B", i) for i in range(b, M)]
    return order


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    from d2lgpu.pipeline import schedule_ticks
    S, M = len(stages), min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = [_order(k, S, M) for k in range(S)]
    plan = sorted((s.start, s.stage, s.phase, s.micro_batch) for s in schedule_ticks(orders))
    inputs, outputs, losses = {}, {}, []
    for _, k, phase, i in plan:
        if phase == "forward":
            h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == S - 1:
                out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
            inputs[k, i], outputs[k, i] = h, out
        else:
            out = outputs.pop((k, i))
            if k == S - 1:
                out.backward()
                losses.append(out.detach())
            else:
                out.backward(inputs.pop((k + 1, i)).grad)
    return torch.stack(losses).sum()


answer = one_f_one_b_step
