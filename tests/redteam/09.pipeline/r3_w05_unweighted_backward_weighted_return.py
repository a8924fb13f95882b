# expect: fail backward of each micro-batch's plain mean loss; the returned loss is weighted right
# hint: gradients weight the 4 micro-batches equally
import torch
def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    k = min(n_micro, len(x))
    raw, report = [], 0
    for a, b in zip(torch.tensor_split(x, k), torch.tensor_split(y, k)):
        l = loss_fn(stage2(stage1(a.to(d1)).to(d2)), b.to(d2))
        raw.append(l)
        report = report + l.detach() * len(a) / len(x)
    (sum(raw) / k).backward()
    return report
