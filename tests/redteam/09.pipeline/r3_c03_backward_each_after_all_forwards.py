# expect: pass all forwards, then a backward per weighted loss in reverse order; cuda-style non_blocking moves
# hint: 
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    parts = list(zip(torch.tensor_split(x, min(n_micro, len(x))), torch.tensor_split(y, min(n_micro, len(x)))))
    weighted = []
    for a, b in parts:
        h = stage1(a.to(d1, non_blocking=True))
        out = stage2(h.to(d2, non_blocking=True))
        weighted.append(loss_fn(out, b.to(d2, non_blocking=True)) * (a.shape[0] / x.shape[0]))
    for l in reversed(weighted):
        l.backward()
    return sum(l.detach() for l in weighted)
