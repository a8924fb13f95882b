# expect: pass
# hint:
# RIGHT: the same per-stage sequence written as min(S - k, M) forwards then (backward, forward)
# pairs (F^w F B F B ... == F^(w+1) B F B ...), run in the order of an own ideal clock.
import torch


def _orders(S, M):
    orders = []
    for k in range(S):
        lead = min(S - k, M)  # the warm-up, plus the first steady-state forward
        order = [("F", i) for i in range(lead)]
        for j in range(M - lead):
            order += [("B", j), ("F", lead + j)]
        order += [("B", i) for i in range(M - lead, M)]
        orders.append(order)
    return orders


def _plan(orders):
    """Each action's start on a clock where an action takes one tick once what it needs is done."""
    S = len(orders)
    end, plan, nxt, free = {}, [], [0] * S, [0] * S
    while any(nxt[k] < len(orders[k]) for k in range(S)):
        moved = False
        for k in range(S):
            if nxt[k] == len(orders[k]):
                continue
            phase, i = orders[k][nxt[k]]
            need = (("F", k - 1, i) if k > 0 else None) if phase == "F" else (
                ("B", k + 1, i) if k < S - 1 else None
            )
            if need is not None and need not in end:
                continue
            start = max(free[k], end[need] if need else 0)
            end[phase, k, i] = free[k] = start + 1
            plan.append((start, k, phase, i))
            nxt[k] += 1
            moved = True
        assert moved, "the orders wait on each other"
    return sorted(plan)


def answer(stages, x, y, loss_fn, n_micro):
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    last = len(stages) - 1
    received, outputs, losses = {}, {}, []
    for _, k, phase, i in _plan(_orders(len(stages), M)):
        if phase == "F":
            h = xs[i] if k == 0 else outputs[k - 1, i].detach().requires_grad_()
            received[k, i] = h
            out = stages[k](h)
            if k == last:
                out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
            outputs[k, i] = out
        elif k == last:
            loss = outputs.pop((k, i))
            loss.backward()
            losses.append(loss.detach())
        else:
            outputs.pop((k, i)).backward(received.pop((k + 1, i)).grad)
    return sum(losses[1:], losses[0])

