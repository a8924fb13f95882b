# expect: fail a mutable default list keeps every past step's losses: the returned loss grows from call to call
# hint: loss|state|previous|call
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro, losses=[]):  # noqa: B006
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    first = len(losses)
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    torch.stack(losses[first:]).sum().backward()  # this step's micro-batches
    return sum(loss.detach() for loss in losses)


answer = pipeline_step
