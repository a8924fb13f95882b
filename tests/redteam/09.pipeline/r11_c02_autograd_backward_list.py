# expect: pass
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """torch.autograd.backward on the list of weighted losses: one call after every forward,
    accumulating into .grad."""
    src = next(stage1.parameters()).device
    dst = next(stage2.parameters()).device
    n = len(x)
    cuts = min(n_micro, n)
    weighted = [
        loss_fn(stage2(stage1(xb.to(src)).to(dst)), yb.to(dst)).mul(len(xb) / n)
        for xb, yb in zip(x.tensor_split(cuts), y.tensor_split(cuts))
    ]
    torch.autograd.backward(weighted)
    return sum(w.detach() for w in weighted)
