# expect: fail keeps the micro-batches' losses in a mutable default argument, so a second step returns the sum of both steps' losses
# hint: second (step|call)|again|two steps|previous (step|call)|(earlier|last) (step|call)|between (steps|calls)|mutable|default arg|clear|stale|accumulat\w* (across|over) (steps|calls)
# WRONG: the first call is right in every way; from the second call on, the returned loss also
# counts every earlier step's micro-batches (the list is made once, when `def` runs).
import torch

from d2lgpu.pipeline import micro_batches


def answer(stages, x, y, loss_fn, n_micro, losses=[]):  # noqa: B006
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M = len(stages), len(xs)
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            order += [("F", warm + j), ("B", j)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    pos, done = [0] * S, set()
    inputs, outputs = {}, {}
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
