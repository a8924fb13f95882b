# expect: fail torch.chunk gives fewer micro-batches than asked for some sizes
# hint: torch\.chunk
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    loss = 0
    for a, b in zip(x.chunk(n_micro), y.chunk(n_micro)):
        loss = loss + loss_fn(stage2(stage1(a.to(d1)).to(d2)), b.to(d2)) * len(a) / len(x)
    loss.backward()
    return loss.detach()
