# expect: fail Python's max() over the micro-batches' loss tensors compares them with >, and each comparison's truth value is a host read (M - 1 hidden reads, before the last forward), on top of the read for the return
# hint: read|host|max|compar|bool|sync|wait|once
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    shares, losses = [], []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)))
        shares.append(len(xb) / len(x))
    # keep the worst micro-batch around, handy to spot a bad shard of the data
    worst = max(losses)
    total = sum(w * l for w, l in zip(shares, losses))
    total.backward()
    answer.worst_micro_batch = worst.detach()
    return total.detach()
