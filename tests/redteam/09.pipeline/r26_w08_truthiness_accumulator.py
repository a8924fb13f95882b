# expect: fail accumulates the weighted losses with `total + w if total else w`: `if total` asks a device tensor for its truth value, a host read per micro-batch after the first (M - 1 hidden reads, before the last forward)
# hint: if total|truth|bool|read|host|sync|wait|condition|once
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    total = None
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        w = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        total = total + w if total else w  # the first micro-batch starts the sum
    total.backward()
    return total.detach()
