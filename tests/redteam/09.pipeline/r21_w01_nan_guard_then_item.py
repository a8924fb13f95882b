# expect: fail two host reads per step: a finiteness check of the total (bool of a device tensor) and then .item() for the return
# hint: read|host|item|isfinite|bool|twice|once|sync
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    parts = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        parts.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(parts).sum()
    if not torch.isfinite(total):  # never step on a diverged loss
        raise FloatingPointError("loss is not finite")
    total.backward()
    return total.item()
