# expect: pass each stage a Python generator that yields its 1F1B actions, driven round-robin; the step is a functools.partial of a general driver
# hint:
import functools

import torch

from d2lgpu.pipeline import micro_batches


def _stage_actions(k, n_stages, n_micro):
    """Stage k's 1F1B order, written out: warm-up forwards, then F/B in turn, then the rest."""
    warm = min(n_stages - k - 1, n_micro)
    next_f = next_b = 0
    for _ in range(warm):
        yield "F", next_f
        next_f += 1
    while next_f < n_micro:
        yield "F", next_f
        next_f += 1
        yield "B", next_b
        next_b += 1
    while next_b < n_micro:
        yield "B", next_b
        next_b += 1


def _pipelined_step(stages, x, y, loss_fn, n_micro, *, orders):
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    m, last = len(xs), len(stages) - 1
    plans = [orders(k, len(stages), m) for k in range(len(stages))]
    pending = [next(p, None) for p in plans]
    forwarded = [-1] * len(stages)  # the last micro-batch each stage has forwarded
    backwarded = [-1] * len(stages)
    ins, outs, total = {}, {}, torch.zeros(())
    while any(a is not None for a in pending):
        progress = False
        for k, action in enumerate(pending):
            if action is None:
                continue
            phase, i = action
            if phase == "F":
                if k > 0 and forwarded[k - 1] < i:
                    continue
                h = xs[i] if k == 0 else outs[k - 1, i].detach().requires_grad_()
                out = stages[k](h)
                if k == last:
                    out = loss_fn(out, ys[i]) * (len(ys[i]) / len(y))
                ins[k, i], outs[k, i] = h, out
                forwarded[k] = i
            else:
                if k < last and backwarded[k + 1] < i:
                    continue
                out = outs.pop((k, i))
                if k == last:
                    total = total + out.detach()
                    out.backward()
                else:
                    out.backward(ins.pop((k + 1, i)).grad)
                backwarded[k] = i
            pending[k] = next(plans[k], None)
            progress = True
        if not progress:
            raise RuntimeError("deadlock: no stage can run its next action")
    return total


one_f_one_b_step = functools.partial(_pipelined_step, orders=_stage_actions)
answer = one_f_one_b_step
