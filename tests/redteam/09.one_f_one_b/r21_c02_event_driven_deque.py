# expect: pass event-driven driver: a deque of stages to try, a stage re-queued together with its neighbours whenever it completes an action
# hint: 
from collections import deque

import torch

from d2lgpu.pipeline import micro_batches


def _plan(S, M, k):
    warm = min(S - k - 1, M)
    fwd, bwd = iter(range(M)), iter(range(M))
    plan = [("F", next(fwd)) for _ in range(warm)]
    for _ in range(M - warm):
        plan += [("F", next(fwd)), ("B", next(bwd))]
    plan += [("B", i) for i in bwd]
    return deque(plan)


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    S, M, rows = len(stages), len(xs), len(x)
    plans = [_plan(S, M, k) for k in range(S)]
    finished = set()
    cut_in, out = {}, {}
    losses = []
    waiting = deque(range(S))
    while waiting:
        k = waiting.popleft()
        if not plans[k]:
            continue
        kind, i = plans[k][0]
        need = None
        if kind == "F" and k > 0:
            need = ("F", k - 1, i)
        elif kind == "B" and k < S - 1:
            need = ("B", k + 1, i)
        if need is not None and need not in finished:
            continue  # re-queued when the neighbour acts
        plans[k].popleft()
        if kind == "F":
            h = xs[i] if k == 0 else out[k - 1, i].detach().requires_grad_()
            o = stages[k](h)
            if k == S - 1:
                o = loss_fn(o, ys[i]) * (len(ys[i]) / rows)
            cut_in[k, i], out[k, i] = h, o
        else:
            o = out.pop((k, i))
            if k == S - 1:
                o.backward()
                losses.append(o.detach())
            else:
                o.backward(cut_in.pop((k + 1, i)).grad)
        finished.add((kind, k, i))
        waiting.extend(j for j in (k - 1, k, k + 1) if 0 <= j < S)
    return sum(losses[1:], losses[0])


answer = one_f_one_b_step
