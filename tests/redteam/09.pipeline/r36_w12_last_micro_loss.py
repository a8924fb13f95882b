# expect: fail returns only the last micro-batch's loss instead of the whole batch's
# hint: return|last micro|whole batch|batch's loss|total
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    weighted = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        loss = loss_fn(out, yb.to(d2))
        weighted.append(loss * (len(xb) / len(x)))
    torch.stack(weighted).sum().backward()
    return loss.detach()
