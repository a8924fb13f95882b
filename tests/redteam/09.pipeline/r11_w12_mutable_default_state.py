# expect: fail keeps the micro-batches' losses in a mutable default argument, a list that outlives the call: the next step sums (and backpropagates through) the previous steps' losses too
# hint: default|mutable|state|between calls|previous (step|call)|global|persist|reset|outliv|second (step|call)|twice|backward through the graph
# name: pipeline_step
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro, losses=[]):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    for xb, yb in zip(torch.tensor_split(x, m), torch.tensor_split(y, m)):
        h = stage1(xb.to(d1))
        out = stage2(h.to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()
