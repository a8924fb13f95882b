# expect: fail backward(retain_graph=True) and the loss returned with its graph: every micro-batch's activations stay alive after the step
# hint: retain_graph|graph|activations|memory|free|alive|detach
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward(retain_graph=True)  # keep the graph, in case the caller wants to inspect it
    return loss
