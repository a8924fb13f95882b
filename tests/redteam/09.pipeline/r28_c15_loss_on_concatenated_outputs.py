# expect: pass runs loss_fn once, on torch.cat of every micro-batch's output against the whole y (a mean over every row: the whole batch's loss), after every forward; the gradients are the whole batch's
# hint:
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    """Every micro-batch through both stages; one loss over the gathered outputs."""
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    count = min(n_micro, len(x))
    outs = []
    for xs in torch.tensor_split(x, count):
        h = stage1(xs.to(dev1)).to(dev2)
        outs.append(stage2(h))
    # a mean over all rows is the weighted sum of the micro-batches' means anyway
    loss = loss_fn(torch.cat(outs), y.to(dev2))
    loss.backward()
    return loss.detach()
