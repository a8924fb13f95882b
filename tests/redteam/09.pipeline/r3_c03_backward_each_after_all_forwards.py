# expect: fail all forwards, then a backward per weighted loss in reverse order, every move with non_blocking=True: with stage 2 on the CPU (the notebook's one-GPU layout) stage 2 computes on the activations before their copy lands, as PyTorch's guide to non_blocking says of cuda_tensor.to("cpu", non_blocking=True).mean() (judged right until round 62, when a case put stage 2 on the CPU)
# hint: non.?blocking|landed|race|waited
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
