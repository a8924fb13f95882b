# expect: fail runs an extra forward of the whole batch to get the returned loss (every stage runs twice)
# hint: twice|extra|again|unsplit|whole batch|second forward|forwards? (done|run) twice|call
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    weighted = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        weighted.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    torch.stack(weighted).sum().backward()
    with torch.no_grad():  # the batch's loss, for the caller
        return loss_fn(stage2(stage1(x.to(d1)).to(d2)), y.to(d2))
