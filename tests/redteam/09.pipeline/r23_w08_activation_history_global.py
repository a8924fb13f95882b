# expect: fail every micro-batch's boundary activation is appended to a module-level list for inspection and never cleared, so each step keeps its activations alive on stage 2's device: memory grows with every call (values all right)
# hint: global|list|kept|keep|memory|leak|clear|alive|grow|history
import torch

from d2lgpu.pipeline import micro_batches

sent_activations = []  # what stage 1 sent to stage 2, for inspecting a run afterwards


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        h = stage1(xb.to(d1)).to(d2)
        sent_activations.append(h.detach())
        losses.append(loss_fn(stage2(h), yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
