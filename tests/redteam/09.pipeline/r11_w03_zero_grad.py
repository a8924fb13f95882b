# expect: fail zeroes the stages' gradients at the start of the step, so the gradients already in .grad are lost instead of added to
# hint: zero|zero_grad|set_to_none|add(s|ed|ing)? to|accumulat|existing|already in|overwr|caller
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    stage1.zero_grad()
    stage2.zero_grad()  # a fresh step: start from clean gradients
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
