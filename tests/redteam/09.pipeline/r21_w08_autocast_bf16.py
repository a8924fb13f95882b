# expect: fail the forwards run under torch.autocast (bfloat16) "for speed": loss and gradients are no longer the float32 model's, beyond any tolerance
# hint: autocast|bfloat16|bf16|precision|dtype|float32
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        with torch.autocast(d1.type, dtype=torch.bfloat16):
            a = stage1(xb.to(d1))
        with torch.autocast(d2.type, dtype=torch.bfloat16):
            out = stage2(a.to(d2))
        losses.append(loss_fn(out.float(), yb.to(d2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()
