# expect: pass each stage wrapped in a small object that holds its own order (built with while loops) and its pending activations, visited last stage first on every sweep, micro_batches from d2lgpu.pipeline
# hint: 
# name: one_f_one_b_step
import torch
from d2lgpu.pipeline import micro_batches


class _Runner:
    def __init__(self, module, k, n_stages, m):
        self.module, self.k, self.last = module, k, k == n_stages - 1
        warm = min(n_stages - k - 1, m)
        order, f, b = [], 0, 0
        while f < warm:
            order.append(("F", f))
            f += 1
        while f < m:
            order += [("F", f), ("B", b)]
            f, b = f + 1, b + 1
        while b < m:
            order.append(("B", b))
            b += 1
        self.order, self.step = order, 0
        self.inputs, self.outputs = {}, {}
        self.forwarded, self.backwarded = set(), set()

    def next_action(self):
        return self.order[self.step] if self.step < len(self.order) else None


def one_f_one_b_step(stages, x, y, loss_fn, n_micro):
    """One 1F1B training step of stages[0], ..., stages[-1] on (x, y); returns the loss."""
    xs, ys = micro_batches(x, n_micro), micro_batches(y, n_micro)
    m, n = len(xs), len(x)
    runners = [_Runner(stage, k, len(stages), m) for k, stage in enumerate(stages)]
    loss = torch.zeros(())
    while any(r.next_action() is not None for r in runners):
        for r in reversed(runners):
            action = r.next_action()
            if action is None:
                continue
            kind, i = action
            before = runners[r.k - 1] if r.k > 0 else None
            after = runners[r.k + 1] if not r.last else None
            if kind == "F":
                if before is not None and i not in before.forwarded:
                    continue
                h = xs[i] if before is None else before.outputs[i].detach().requires_grad_()
                out = r.module(h)
                if r.last:
                    out = loss_fn(out, ys[i]) * (len(xs[i]) / n)
                    loss = loss + out.detach()
                r.inputs[i], r.outputs[i] = h, out
                r.forwarded.add(i)
            else:
                if after is not None and i not in after.backwarded:
                    continue
                out = r.outputs.pop(i)
                if after is None:
                    out.backward()
                else:
                    out.backward(after.inputs.pop(i).grad)
                r.backwarded.add(i)
            r.step += 1
    return loss
