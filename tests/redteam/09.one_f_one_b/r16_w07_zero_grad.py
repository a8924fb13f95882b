# expect: fail zeroes the stages' gradients at the start, dropping the gradients already in .grad
# hint: zero|zero_grad|accumulat|add to|already in|existing
import torch

from d2lgpu.pipeline import micro_batches


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
    for stage in stages:  # a fresh step: start from clean gradients
        stage.zero_grad()
    last = n_stages - 1
    orders = _orders(n_stages, m)
    position = [0] * n_stages
    done = set()
    inputs, outputs, losses = {}, {}, []
    while any(position[k] < len(orders[k]) for k in range(n_stages)):
        for k in range(n_stages):
            if position[k] == len(orders[k]):
                continue
            kind, i = orders[k][position[k]]
            if kind == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue  # stage k - 1 has not sent micro-batch i yet
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == last:  # the micro-batch's loss, weighted by its share of the rows
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < last and ("B", k + 1, i) not in done:
                    continue  # no gradient back from stage k + 1 yet
                out = outputs.pop((k, i))
                if k == last:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((kind, k, i))
            position[k] += 1
    return torch.stack(losses).sum()


answer = one_f_one_b_step
