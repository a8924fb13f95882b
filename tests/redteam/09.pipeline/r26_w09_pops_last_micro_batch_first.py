# expect: pass runs the micro-batches last to first (the list used as a stack): written as a wrong answer, judged right: the prompt asks for each micro-batch through both stages and the loss over the whole batch, and with every backward after its forward the order of the micro-batches changes neither values nor reads
# hint:
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    pending = list(zip(micro_batches(x, n_micro), micro_batches(y, n_micro)))
    weighted = []
    while pending:
        xb, yb = pending.pop()
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(weighted).sum()
    total.backward()
    return total.detach()
