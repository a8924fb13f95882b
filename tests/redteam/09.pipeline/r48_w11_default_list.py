# expect: fail losses kept in a mutable default argument: from the second call on, the returned loss adds earlier steps'
# hint: loss|second call|previous|earlier|state|between calls
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro, _losses=[]):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    first = len(_losses)
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        _losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    torch.stack(_losses[first:]).sum().backward()
    return torch.stack([loss.detach() for loss in _losses]).sum()


answer = pipeline_step
