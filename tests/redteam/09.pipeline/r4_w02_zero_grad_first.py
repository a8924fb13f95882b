# expect: fail zeroes the stages' gradients at the start of the step, which the prompt forbids: the gradients already in .grad are lost
# hint: zero|already in|\.grad|add to|accumulat
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    stage1.zero_grad(), stage2.zero_grad()  # a clean step
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    for loss in losses:
        loss.backward()
    return sum(l.detach() for l in losses)
