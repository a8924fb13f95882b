# expect: pass
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Micro-batch sizes worked out in a small CPU tensor (tolist() of host data, no device
    read); torch.split with those sizes; the weighted losses summed by torch.stack."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    rows = x.size(0)
    count = min(n_micro, rows)
    sizes = torch.full((count,), rows // count, dtype=torch.long)
    sizes[: rows % count] += 1  # the first ones one row longer, as tensor_split cuts
    sizes = sizes.tolist()
    weighted = []
    for xs, ys in zip(x.split(sizes), y.split(sizes)):
        acts = stage1(xs.to(dev1)).to(dev2)
        share = xs.size(0) / rows
        weighted.append(share * loss_fn(stage2(acts), ys.to(dev2)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
