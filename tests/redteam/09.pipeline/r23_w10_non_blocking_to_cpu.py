# expect: fail activations are sent with .to(d2, non_blocking=True): when stage 1 is on a GPU and stage 2 on the CPU (the notebook's one-GPU layout) the device-to-host copy is asynchronous into pageable memory and stage 2 reads the CPU tensor before the copy has finished; the checker's one-GPU case (CPU to GPU) and GPU-to-GPU copies hide it
# hint: non.?blocking|async|device.to.host|to the cpu|cpu|pinned|synchron|race|finish
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        # non_blocking: the copy should not hold the host, stage 1 runs on meanwhile
        h = stage1(xb.to(d1, non_blocking=True)).to(d2, non_blocking=True)
        out = stage2(h)
        losses.append(loss_fn(out, yb.to(d2, non_blocking=True)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
