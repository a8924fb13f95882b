# expect: fail keeps the orders between calls in a module-level cache keyed by the number of stages only, so a later call with another number of micro-batches reuses a stale schedule
# hint: between (calls|steps)|(kept|left|cached|stored|reus\w*).{0,40}(call|step)|global|cache|stale|state|previous (call|step)|earlier (call|step)|second call
# name: one_f_one_b_step
import torch


def _orders(S, M):
    """Each stage's actions in 1F1B's order: ("F", i) or ("B", i)."""
    orders = []
    for k in range(S):
        warm = min(S - k - 1, M)
        order = [("F", i) for i in range(warm)]
        for j in range(M - warm):
            order += [("F", warm + j), ("B", j)]
        order += [("B", i) for i in range(M - warm, M)]
        orders.append(order)
    return orders


_SCHEDULES = {}  # the pipeline's schedule, built once


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    S, N = len(stages), len(x)
    M = min(n_micro, N)
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    if S not in _SCHEDULES:
        _SCHEDULES[S] = _orders(S, M)
    orders = _SCHEDULES[S]
    pos = [0] * S
    done = set()  # (phase, stage, micro-batch)
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
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / N)
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
            raise RuntimeError("schedule is stuck")
    return torch.stack(losses).sum()
