# expect: pass a small class per stage holding its own 1F1B order, driven by a round-robin loop
# hint:
import collections

import torch


class _StageRunner:
    """One stage: its 1F1B order, and what it has in flight."""

    def __init__(self, k, module, n_stages, n_micro):
        self.k, self.module = k, module
        self.last = k == n_stages - 1
        warm = min(n_stages - k - 1, n_micro)
        order = [("F", i) for i in range(warm)]
        for j in range(n_micro - warm):
            order += [("F", warm + j), ("B", j)]
        order += [("B", i) for i in range(n_micro - warm, n_micro)]
        self.todo = collections.deque(order)
        self.inputs, self.outputs = {}, {}


def _step(stages, x, y, loss_fn, n_micro):
    m = min(n_micro, len(x))
    xs, ys = torch.tensor_split(x, m), torch.tensor_split(y, m)
    runners = [_StageRunner(k, s, len(stages), m) for k, s in enumerate(stages)]
    fwd_done, bwd_done = set(), set()
    losses = []
    while any(r.todo for r in runners):
        progressed = False
        for r in runners:
            if not r.todo:
                continue
            phase, i = r.todo[0]
            k = r.k
            if phase == "F":
                if k > 0 and (k - 1, i) not in fwd_done:
                    continue
                if k == 0:
                    h = xs[i]
                else:
                    h = runners[k - 1].outputs[i].detach().requires_grad_()
                out = r.module(h)
                if r.last:
                    loss = loss_fn(out, ys[i]) * (len(xs[i]) / len(x))
                    losses.append(loss.detach())
                    out = loss
                r.inputs[i], r.outputs[i] = h, out
                fwd_done.add((k, i))
            else:
                if not r.last and (k + 1, i) not in bwd_done:
                    continue
                out = r.outputs.pop(i)
                if r.last:
                    out.backward()
                else:
                    out.backward(runners[k + 1].inputs.pop(i).grad)
                bwd_done.add((k, i))
            r.todo.popleft()
            progressed = True
        if not progressed:
            raise RuntimeError("1F1B schedule is stuck")
    for r in runners:
        r.inputs.clear()
    return torch.stack(losses).sum()


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    return _step(stages, x, y, loss_fn, n_micro)


answer = one_f_one_b_step
