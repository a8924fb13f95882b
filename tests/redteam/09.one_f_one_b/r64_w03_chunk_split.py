# expect: fail splits with torch.chunk, which gives fewer than min(n_micro, len(x)) micro-batches for some sizes (6 rows in 4: 3)
# hint: chunk|tensor_split|micro.?batch(es)?.*(count|number|fewer|too few|missing|how many)|min\(n_micro|\bM\b.*micro|fewer (micro|forward)
# WRONG: torch.chunk(x, 4) of 6 rows gives three micro-batches of 2, not four; the schedule
# then has M = 3 (right gradients, wrong number of forwards and backwards on each stage).
import torch


def answer(stages, x, y, loss_fn, n_micro):
    xs = torch.chunk(x, min(n_micro, len(x)))
    ys = torch.chunk(y, min(n_micro, len(x)))
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
