# expect: pass a small class that cuts the graph at the stage boundary (detach().requires_grad_()), runs every forward, then stage 2's backward and stage 1's with the cut's gradients, no host read at all
# hint: 
# name: pipeline_step
import torch
from d2lgpu.pipeline import micro_batches


class _TwoStageGPipe:
    def __init__(self, stage1, stage2, loss_fn):
        self.stages = (stage1, stage2)
        self.devices = tuple(next(s.parameters()).device for s in self.stages)
        self.loss_fn = loss_fn
        self.stage1_outs, self.cuts, self.losses = [], [], []

    def forward(self, xb, yb, share):
        h = self.stages[0](xb.to(self.devices[0]))
        cut = h.detach().requires_grad_()
        out = self.stages[1](cut.to(self.devices[1]))
        self.stage1_outs.append(h)
        self.cuts.append(cut)
        self.losses.append(self.loss_fn(out, yb.to(self.devices[1])) * share)

    def backward(self):
        torch.autograd.backward(self.losses)  # stage 2, every micro-batch
        torch.autograd.backward(self.stage1_outs, [c.grad for c in self.cuts])  # stage 1
        return torch.stack([loss.detach() for loss in self.losses]).sum()


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    step = _TwoStageGPipe(stage1, stage2, loss_fn)
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        step.forward(xb, yb, len(xb) / len(x))
    return step.backward()
