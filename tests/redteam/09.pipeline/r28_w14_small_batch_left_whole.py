# expect: fail When the batch has fewer rows than n_micro it is run as a single micro-batch instead of len(x) micro-batches of one row: loss and gradients are right, but there is no pipelining and stage 2 cannot start before stage 1 has finished; shows only on batches smaller than n_micro.
# hint: (fewer rows|min\(n_micro|len\(x\)|number of micro-batches|micro-batch count|one micro-batch|single micro-batch|not split|unsplit|small batch|in one call|split it into)
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """GPipe step; a batch too small to split runs as one piece."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = len(x)
    count = n_micro if rows >= n_micro else 1  # too few rows: no point in splitting
    weighted = []
    for xs, ys in zip(torch.tensor_split(x, count), torch.tensor_split(y, count)):
        out = stage2(stage1(xs.to(dev1)).to(dev2))
        weighted.append(loss_fn(out, ys.to(dev2)) * (len(xs) / rows))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
