# expect: fail detaches the activations when moving them to stage 2, so stage 1 gets no gradient
# hint: detach|stage 1.*grad|no grad|graph|cut|requires_grad
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    weighted = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1))
        h = h.detach().to(d2).requires_grad_()  # a clean hand-off between devices
        out = stage2(h)
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
