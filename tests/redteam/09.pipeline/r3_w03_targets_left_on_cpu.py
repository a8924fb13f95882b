# expect: fail the targets stay on the CPU while the output is on stage 2's device
# hint: targets were on the CPU
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    k = min(n_micro, len(x))
    outs = [stage2(stage1(a.to(d1)).to(d2)) for a in torch.tensor_split(x, k)]
    loss = sum(loss_fn(o, b) * len(b) / len(y) for o, b in zip(outs, torch.tensor_split(y, k)))
    loss.backward()
    return loss.detach()
