# expect: fail stages the activations through host memory (h.cpu().to(device)) instead of copying them straight to stage 2's device: two copies per micro-batch, and a device-to-host copy that makes the host wait
# hint: host|cpu|through|stag(e|ing)|copy|copies|round.?trip|direct|sync|read
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        h = stage1(xb.to(dev1))
        # between two devices, go through host memory (autograd follows both copies)
        out = stage2(h.cpu().to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
