# expect: pass
# hint:
# Right: the shares go in as grad_tensors of one torch.autograd.backward over the raw
# micro-batch means (sum_i w_i * grad L_i), which adds to .grad; the loss is sum_i w_i L_i.
import torch


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    count = min(n_micro, x.shape[0])
    raw, shares = [], []
    for xb, yb in zip(torch.tensor_split(x, count), torch.tensor_split(y, count), strict=True):
        h = stage1(xb.to(d1))
        raw.append(loss_fn(stage2(h.to(d2)), yb.to(d2)))
        shares.append(xb.shape[0] / x.shape[0])
    weights = [torch.full_like(loss, w) for loss, w in zip(raw, shares, strict=True)]
    torch.autograd.backward(raw, grad_tensors=weights)
    return sum(w * loss.detach() for w, loss in zip(shares, raw, strict=True))
