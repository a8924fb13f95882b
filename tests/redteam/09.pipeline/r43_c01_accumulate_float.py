# expect: pass a plain loop over tensor_split micro-batches, the weighted losses summed with +, one backward, and float() read once at the very end
# hint: 
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """One training step of stage2(stage1(x)) in micro-batches; returns the batch's loss."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    total = None
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        part = loss_fn(out, yb.to(dev2)) * (len(xb) / len(x))
        total = part if total is None else total + part
    total.backward()  # every forward has run: GPipe's one backward
    return float(total.detach())  # the only host read, after the last forward
