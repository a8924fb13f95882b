# expect: pass row-sum formulation: each micro-batch's mean loss times its row count, summed, divided by the batch's rows once; y sliced by running offsets
# hint:
# name: pipeline_step
import torch

from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One GPipe step; the loss's sum over rows, divided by the row count at the end."""
    dev1 = next(iter(stage1.parameters())).device
    dev2 = next(iter(stage2.parameters())).device
    row_sums = []
    start = 0
    for xb in micro_batches(x, n_micro):
        stop = start + len(xb)
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        row_sums.append(loss_fn(out, y[start:stop].to(dev2)) * len(xb))
        start = stop
    loss = torch.stack(row_sums).sum() / len(x)
    loss.backward()
    return loss.detach()
