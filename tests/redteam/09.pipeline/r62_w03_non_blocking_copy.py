# expect: fail copies the activations with non_blocking=True: when stage 2 is on the CPU and stage 1 on a GPU (the notebook's one-GPU layout), the CPU reads the copy before it has landed, a race
# hint: non.?blocking|race|async|pinned|not (yet )?(finished|arrived|landed)|synchroni[sz]|cpu
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        h = stage1(xb.to(dev1, non_blocking=True))
        # non_blocking: the copy overlaps with stage 1's next micro-batch
        out = stage2(h.to(dev2, non_blocking=True))
        target = yb.to(dev2, non_blocking=True)
        losses.append(loss_fn(out, target) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
