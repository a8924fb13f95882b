# expect: fail backward with retain_graph=True: each stage's graphs keep what their micro-batches saved after the step
# hint: retain_graph|retain|still hold|(graph|activation)s?.*(kept|keep|held|hold|alive|not freed|free)|saved.*(kept|free|alive)|free
# WRONG: right order, loss and gradients, but every micro-batch's saved activations stay alive
# as long as anything refers to its output: 1F1B's memory saving is gone.
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
                    out.backward(retain_graph=True)  # "in case a stage needs it again"
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad, retain_graph=True)
            done.add((phase, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("stuck")
    return torch.stack(losses).sum()
