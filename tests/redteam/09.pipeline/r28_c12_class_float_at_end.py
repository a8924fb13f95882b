# expect: pass
# hint:
# name: pipeline_step
import torch

from d2lgpu.pipeline import micro_batches


class _GPipe:
    """One step's state: the weighted losses still on stage 2's device."""

    def __init__(self, stage1, stage2, rows):
        self.stages = (stage1, stage2)
        self.devices = tuple(next(s.parameters()).device for s in self.stages)
        self.rows = rows
        self.pending = []

    def forward(self, xs, ys, loss_fn):
        first, second = self.stages
        h = first(xs.to(self.devices[0]))
        out = second(h.to(self.devices[1]))
        self.pending.append(loss_fn(out, ys.to(self.devices[1])) * (xs.shape[0] / self.rows))

    def backward(self):
        loss = torch.stack(self.pending).sum()
        self.pending = []
        loss.backward()
        return float(loss.detach())  # the step's only host read, after the last forward


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    pipe = _GPipe(stage1, stage2, len(x))
    for xs, ys in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        pipe.forward(xs, ys, loss_fn)
    return pipe.backward()
