# expect: pass a StageRunner class per stage with a deque of actions, polled round-robin
# hint: 
from collections import deque

import torch

from d2lgpu.pipeline import micro_batches


class StageRunner:
    """One stage of the pipeline: its 1F1B actions, and what it received and produced."""

    def __init__(self, module, k, n_stages, n_micro):
        self.module, self.k = module, k
        self.is_last = k == n_stages - 1
        warm = min(n_stages - k - 1, n_micro)
        actions = [("F", i) for i in range(warm)]
        for i in range(n_micro - warm):
            actions += [("F", warm + i), ("B", i)]
        actions += [("B", i) for i in range(n_micro - warm, n_micro)]
        self.actions = deque(actions)
        self.inputs, self.outputs = {}, {}
        self.forwarded, self.backwarded = set(), set()


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    runners = [StageRunner(s, k, len(stages), len(xs)) for k, s in enumerate(stages)]
    total = torch.zeros(())

    def ready(r, action, i):
        if action == "F":
            return r.k == 0 or i in runners[r.k - 1].forwarded
        return r.is_last or i in runners[r.k + 1].backwarded

    def run(r, action, i):
        nonlocal total
        if action == "F":
            h = xs[i] if r.k == 0 else runners[r.k - 1].outputs[i].detach().requires_grad_()
            out = r.module(h)
            if r.is_last:
                out = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
            r.inputs[i], r.outputs[i] = h, out
            r.forwarded.add(i)
        else:
            out = r.outputs.pop(i)
            if r.is_last:
                out.backward()
                total = total + out.detach()
            else:
                out.backward(runners[r.k + 1].inputs.pop(i).grad)
            r.backwarded.add(i)

    while any(r.actions for r in runners):
        for r in runners:
            if r.actions and ready(r, *r.actions[0]):
                run(r, *r.actions.popleft())
    return total


answer = one_f_one_b_step
