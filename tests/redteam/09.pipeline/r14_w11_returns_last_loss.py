# expect: fail returns only the last micro-batch's (weighted) loss, not the whole batch's
# hint: return|whole batch'?s loss|batch loss|loss.*(differ|wrong|mismatch|expected|last)|last micro
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
        losses.append(loss)
    torch.autograd.backward(losses)
    return loss.detach()


answer = pipeline_step
