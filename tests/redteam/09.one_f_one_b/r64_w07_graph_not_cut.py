# expect: fail does not cut the graph between stages (no h.detach().requires_grad_()): the loss's backward runs through every stage at once, so earlier stages' backwards happen at the last stage's turn
# hint: detach|cut|requires_grad_|graph (between|across) stages|one graph|whole graph|(through|across) (all|every) (the )?stages|stage.*input.*(grad|leaf)
# WRONG: right loss and gradients, but each backward of the last stage also runs the earlier
# stages' backwards of that micro-batch, so those stages' own 1F1B turns are empty.
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
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    pos, done = [0] * S, set()
    outputs, losses = {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            if phase == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i]  # autograd carries it across
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                outputs[k, i] = out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                if k == S - 1:  # the gradient flows back to stage 0 from here
                    out = outputs.pop((k, i))
                    out.backward()
                    losses.append(out.detach())
                else:
                    outputs.pop((k, i))  # already done by the loss's backward
            done.add((phase, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("stuck")
    return torch.stack(losses).sum()
