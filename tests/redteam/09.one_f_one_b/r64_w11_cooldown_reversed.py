# expect: fail runs the cool-down backwards newest first (a stack), not in micro-batch order: wrong order on stages with two or more cool-down backwards (S >= 3)
# hint: (in|micro.?batch) order|0 first|revers|cool.?down|last backwards|newest|lifo|backwards? (out of|not in) order|order of (the )?backward
# WRONG: the pending backwards are popped from the end of a list, like a stack; on one or two
# stages each stage has at most one left for the cool-down, so the slip shows only from 3 stages.
import torch

from d2lgpu.pipeline import micro_batches


def answer(stages, x, y, loss_fn, n_micro):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            order += [("F", warm + j), ("B", j)]
        pending = list(range(M - warm, M))
        while pending:  # the last backwards
            order.append(("B", pending.pop()))
        orders.append(order)
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
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
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
