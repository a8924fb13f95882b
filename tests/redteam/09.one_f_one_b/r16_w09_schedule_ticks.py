# expect: fail actions sequenced with d2lgpu.pipeline.schedule_ticks (a helper the prompt forbids) instead of its own loop
# hint: schedule_ticks|d2lgpu\.pipeline|helper|forbid|yourself|own (loop|order)
import torch

from d2lgpu.pipeline import micro_batches, schedule_ticks


def _orders(n_stages, m):
    """Each stage's 1F1B order: its warm-up forwards, one forward and one backward in
    turn, then its last backwards."""
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
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    n_stages, m = len(stages), len(xs)
    last = n_stages - 1
    orders = _orders(n_stages, m)
    inputs, outputs, losses = {}, {}, []
    # the order of my orders on an ideal clock: it respects what each action needs
    plan = sorted((s.start, s.stage, s.phase, s.micro_batch) for s in schedule_ticks(orders))
    for _, k, phase, i in plan:
        if phase == "forward":
            h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            out = stages[k](h)
            if k == last:  # the micro-batch's loss, weighted by its share of the rows
                out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
            inputs[k, i], outputs[k, i] = h, out
        else:
            out = outputs.pop((k, i))
            if k == last:
                out.backward()
                losses.append(out.detach())
            else:
                out.backward(inputs.pop((k + 1, i)).grad)
    return torch.stack(losses).sum()


answer = one_f_one_b_step
