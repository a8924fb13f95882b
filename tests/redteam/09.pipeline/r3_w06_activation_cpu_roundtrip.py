# expect: fail activations sent through the CPU (.cpu() then to stage 2): host reads before the last forward
# hint: \.cpu\(\)
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    k = min(n_micro, len(x))
    loss = 0
    for a, b in zip(torch.tensor_split(x, k), torch.tensor_split(y, k)):
        h = stage1(a.to(d1)).cpu().to(d2)
        loss = loss + loss_fn(stage2(h), b.to(d2)) * len(a) / len(x)
    loss.backward()
    return loss.detach()
