# expect: fail .item() of each micro-batch's loss inside the forward loop: a host read per micro-batch
# hint: item|host|read|float\(|sync|device value|per micro-batch
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses, total = [], 0.0
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        total += loss.item()  # the running loss, as a float
        losses.append(loss)
    torch.stack(losses).sum().backward()
    return total
