# expect: fail returns the unweighted mean of the micro-batches' losses: the gradients are right, the returned loss is not the batch's when micro-batches are uneven
# hint: (return\w*|your) loss|loss.*(return|differ|mismatch|expected|unsplit)|weigh|share|uneven|mean of (the )?micro
# WRONG: the backward uses the weighted loss (right gradients), but the loss returned is
# the plain mean of the micro-batch means: wrong for 10 rows in 4 (3, 3, 2, 2).
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
                    plain = loss_fn(out, ys[i])
                    losses.append(plain.detach())  # for the loss returned
                    out = plain * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("stuck")
    return torch.stack(losses).mean()
