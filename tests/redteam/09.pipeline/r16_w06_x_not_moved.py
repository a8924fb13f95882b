# expect: fail the micro-batch is never moved to stage 1's device: works only when stage 1 sits on the CPU
# hint: stage 1's device|stage1's device|wrong device|move.{0,30}(batch|micro-batch|input|x)|where the batch arrives|on the cpu
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        h = stage1(xb)  # the batch is already where stage 1 starts
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
