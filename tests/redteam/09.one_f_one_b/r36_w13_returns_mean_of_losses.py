# expect: fail returns the unweighted mean of the micro-batch losses (wrong loss for uneven splits)
# hint: return|loss|weight|share|mean|rows|uneven
# name: one_f_one_b_step
import torch


def _orders(S, M):
    """Each stage's actions, ("F", i) or ("B", i), in 1F1B's order."""
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            order += [("F", warm + j), ("B", j)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    return orders


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S = len(stages)
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders = _orders(S, M)
    pos = [0] * S
    done = set()  # ("F" or "B", stage, i)
    inputs, outputs, losses, outs_raw = {}, {}, [], {}
    while any(pos[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            kind, i = orders[k][pos[k]]
            if kind == "F":
                if k > 0 and ("F", k - 1, i) not in done:
                    continue
                h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    outs_raw[i] = out
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                inputs[k, i], outputs[k, i] = h, out
            else:
                if k < S - 1 and ("B", k + 1, i) not in done:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    losses.append(loss_fn(outs_raw[i].detach(), ys[i]))
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
            done.add((kind, k, i))
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("no stage can run its next action")
    return torch.stack(losses).mean()
