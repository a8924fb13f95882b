# expect: fail backward right after each micro-batch's forward (not GPipe: a backward runs before the last forward)
# hint: backward.*before|before.*backward|every .*forward|gpipe|last forward
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    m = min(n_micro, len(x))
    total = 0.0
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        loss.backward()  # frees this micro-batch's activations at once
        total = total + loss.detach()
    return total
