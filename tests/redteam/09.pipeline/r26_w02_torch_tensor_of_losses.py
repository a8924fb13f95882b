# expect: fail returns torch.tensor(list of the micro-batches' weighted loss tensors).sum(): torch.tensor converts each device scalar to a Python number, one host read per micro-batch (M reads, inside C++, no .item() in sight)
# hint: torch\.tensor|host|read|sync|scalar|each micro|once|convert
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    weighted = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    torch.stack(weighted).sum().backward()
    # the loss as a plain CPU tensor, built from the detached per-micro-batch values
    return torch.tensor([w.detach() for w in weighted]).sum()
