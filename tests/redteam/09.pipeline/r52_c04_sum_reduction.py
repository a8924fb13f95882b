# expect: pass loss_fn(..., reduction="sum") / len(x): for a loss_fn that is a mean over its rows, as the prompt's are, that is the mean over the whole batch (judged right: the writer counted on a width the prompt's losses do not have)
# hint:
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    losses = []
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        # sum over the micro-batch's rows, divided by the batch's: no shares to weigh
        losses.append(loss_fn(out, yb.to(dev2), reduction="sum") / len(x))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
