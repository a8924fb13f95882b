# expect: fail weights each micro-batch's loss by 1/M instead of its share of the rows: wrong loss and gradients when the micro-batches are uneven
# hint: share|weigh|uneven|unequal|rows|1 ?/ ?M|divid\w* by (the number|M|n_micro)|sizes
# WRONG: dividing by the number of micro-batches (as the library's scale_grads does) is right
# only when every micro-batch has as many rows; 10 rows in 4 (3, 3, 2, 2) give other gradients.
import torch

from d2lgpu.pipeline import micro_batches


def _orders(S, M):
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        fwd = [("F", i) for i in range(M)]
        bwd = [("B", i) for i in range(M)]
        steady = [a for pair in zip(fwd[warm:], bwd) for a in pair]
        orders.append(fwd[:warm] + steady + bwd[M - warm :])
    return orders


def answer(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    orders = _orders(S, M)
    pos, done = [0] * S, set()
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            if phase == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) / M  # the mean of the micro-batches' means
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("stuck")
    return torch.stack(losses).sum()
