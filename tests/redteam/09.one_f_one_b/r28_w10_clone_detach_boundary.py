# expect: fail Cuts the graph with h.clone().detach().requires_grad_() instead of h.detach().requires_grad_(): values and orders are right, but every boundary activation is copied once more, so each micro-batch in flight holds its stage output twice (the output kept for backward and the copy).
# hint: (clone|copy|copies|twice|extra (memory|copy)|detach\(\)\.requires_grad_)
# name: one_f_one_b_step
import torch


def _orders(S, M):
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
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    orders, pos = _orders(S, M), [0] * S
    fwd, bwd = [0] * S, [0] * S  # actions done per stage (each stage goes in order)
    inputs, outputs, losses = {}, {}, []
    while any(pos[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if pos[k] == len(orders[k]):
                continue
            phase, i = orders[k][pos[k]]
            if phase == "F":
                if k > 0 and fwd[k - 1] <= i:
                    continue
                # a fresh tensor for the next stage, as if received over the wire
                h = xs[i] if k == 0 else outputs[k - 1, i].clone().detach().requires_grad_()
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / N)
                inputs[k, i], outputs[k, i] = h, out
                fwd[k] += 1
            else:
                if k < S - 1 and bwd[k + 1] <= i:
                    continue
                out = outputs.pop((k, i))
                if k == S - 1:
                    out.backward()
                    losses.append(out.detach())
                else:
                    out.backward(inputs.pop((k + 1, i)).grad)
                bwd[k] += 1
            pos[k] += 1
            moved = True
        if not moved:
            raise RuntimeError("schedule is stuck")
    return torch.stack(losses).sum()
