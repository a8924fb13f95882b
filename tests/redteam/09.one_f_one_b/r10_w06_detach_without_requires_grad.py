# expect: fail input of stage k + 1 is h.detach() without requires_grad_(): no input gradient, earlier stages never get their gradients
# hint: never ran B0 B1 B2 B3.*detach\(\)\.requires_grad_\(\)
from collections import deque

import torch

from d2lgpu.pipeline import micro_batches


def _order(stage, n_stages, n_mb):
    warm = min(n_stages - stage - 1, n_mb)
    seq = ["F"] * warm + ["F", "B"] * (n_mb - warm) + ["B"] * warm
    f = b = 0
    out = deque()
    for p in seq:
        if p == "F":
            out.append(("F", f))
            f += 1
        else:
            out.append(("B", b))
            b += 1
    return out


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    S = len(stages)
    M = min(n_micro, len(x))
    xb, yb = micro_batches(x, M), micro_batches(y, M)
    queues = [_order(k, S, M) for k in range(S)]
    fwd_done = [set() for _ in range(S)]
    bwd_done = [set() for _ in range(S)]
    stage_in = [dict() for _ in range(S)]
    stage_out = [dict() for _ in range(S)]
    total = None

    while any(queues):
        runnable = []
        for k in range(S):
            if not queues[k]:
                continue
            phase, i = queues[k][0]
            if phase == "F" and (k == 0 or i in fwd_done[k - 1]):
                runnable.append(k)
            elif phase == "B" and (k == S - 1 or i in bwd_done[k + 1]):
                runnable.append(k)
        if not runnable:
            raise RuntimeError("deadlock in the schedule")
        for k in runnable:
            phase, i = queues[k].popleft()
            if phase == "F":
                h = xb[i] if k == 0 else stage_out[k - 1][i].detach()  # cut the graph
                out = stages[k](h)
                if k == S - 1:
                    out = loss_fn(out, yb[i]) * xb[i].shape[0] / x.shape[0]
                stage_in[k][i] = h
                stage_out[k][i] = out
                fwd_done[k].add(i)
            else:
                out = stage_out[k].pop(i)
                if k == S - 1:
                    out.backward()
                    total = out.detach() if total is None else total + out.detach()
                else:
                    grad = stage_in[k + 1].pop(i).grad
                    if grad is not None:  # nothing came back: nothing to do
                        out.backward(grad)
                bwd_done[k].add(i)
    return total


answer = one_f_one_b_step
