# expect: fail computes the returned loss with one more forward of the whole batch through every stage (under no_grad), an extra forward outside 1F1B's order
# hint: extra forward|forward.*(more|extra|twice|again|whole batch|too many)|(more|too many|extra) forwards|recomput|no_grad|loss.*(recomput|again)
# WRONG: gradients and loss right, but each stage runs M + 1 forwards (and the last one on the
# whole batch), the cost of a second forward pass for a number the backwards already had.
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
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((phase, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("stuck")
    with torch.no_grad():  # the whole batch's loss, for the caller
        h = x
        for stage in stages:
            h = stage(h)
        return loss_fn(h, y)
