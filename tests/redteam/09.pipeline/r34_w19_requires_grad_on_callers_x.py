# expect: fail calls x.requires_grad_() on the caller's batch ("so gradients flow"): edits the caller's tensor in place, and leaves a gradient in x.grad
# hint: requires_grad|caller|input|in place|x\.grad
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    x.requires_grad_()
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(dev1))
        out = stage2(h.to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
