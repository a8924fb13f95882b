# expect: pass
# hint:
# RIGHT: functools.partial of a general step; torch.tensor_split directly, and a greedy loop
# that always runs the latest stage whose next action is ready (backwards drain first).
import functools

import torch


def _warmup_1f1b(n_stages, k, n_micro):
    return min(n_stages - k - 1, n_micro)


def _stage_order(warm, n_micro):
    order, f, b = [], 0, 0
    while f < warm:
        order.append(("F", f))
        f += 1
    while f < n_micro:  # steady state: one forward, one backward
        order.append(("F", f))
        order.append(("B", b))
        f += 1
        b += 1
    while b < n_micro:  # cool-down
        order.append(("B", b))
        b += 1
    return order


def _step(stages, x, y, loss_fn, n_micro, *, warmup):
    M = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, M), torch.tensor_split(y, M)
    S = len(stages)
    orders = [_stage_order(warmup(S, k, M), M) for k in range(S)]
    nxt = [0] * S
    forwarded = [set() for _ in range(S)]
    backwarded = [set() for _ in range(S)]
    received, outputs = {}, {}
    total = torch.zeros(())

    def ready(k):
        if nxt[k] == len(orders[k]):
            return False
        phase, i = orders[k][nxt[k]]
        if phase == "F":
            return k == 0 or i in forwarded[k - 1]
        return k == S - 1 or i in backwarded[k + 1]

    while True:
        runnable = [k for k in range(S) if ready(k)]
        if not runnable:
            break
        k = runnable[-1]
        phase, i = orders[k][nxt[k]]
        nxt[k] += 1
        if phase == "F":
            if k == 0:
                h = xs[i]
            else:
                h = outputs[k - 1, i].detach().requires_grad_()
                received[k, i] = h
            out = stages[k](h)
            if k == S - 1:
                out = loss_fn(out, ys[i]) * (xs[i].shape[0] / x.shape[0])
            outputs[k, i] = out  # kept until this stage's backward of i
            forwarded[k].add(i)
        else:
            out = outputs.pop((k, i))
            if k == S - 1:
                out.backward()
                total = total + out.detach()
            else:
                out.backward(received.pop((k + 1, i)).grad)
            backwarded[k].add(i)
    if any(nxt[k] < len(orders[k]) for k in range(S)):
        raise RuntimeError("schedule stuck")
    return total


answer = functools.partial(_step, warmup=_warmup_1f1b)
