# expect: fail detaches the activations before sending them to stage 2: stage 1's parameters get no gradient
# hint: detach|stage 1|stage1|first stage|no grad|gradient
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1)).detach().to(d2)  # a clean tensor on the other device
        out = stage2(h)
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    for loss in losses:
        loss.backward()
    return torch.stack([l.detach() for l in losses]).sum()
