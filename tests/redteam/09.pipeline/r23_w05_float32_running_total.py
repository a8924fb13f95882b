# expect: fail the returned loss is accumulated in place into a float32 zeros tensor, so with float64 (or bfloat16) stages the loss comes back as float32, rounded (and with a dtype different from the unsplit loss's); float32 cases hide it
# hint: dtype|float32|float64|double|bfloat16|precision|zeros|in.place|round
# open: every case's stages are float32, and the prompt names no other dtype: a float32 running total returns the float32 loss exactly there; only stages in another dtype tell it apart
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    weighted = []
    total = torch.zeros((), device=d2)  # the loss to return, summed as we go
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        weighted.append(loss)
        total += loss.detach()
    torch.autograd.backward(weighted)  # one backward, after every forward
    return total
