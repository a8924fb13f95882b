# expect: fail backward of the row-weighted sum, then .grad divided by the rows: scales the caller's existing gradients too
# hint: add|accumul|existing|already|pre-?existing|\.grad|scal|overwr
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        losses.append(loss_fn(out, yb.to(dev2)) * len(xb))  # each micro-batch's row sum
    total = torch.stack(losses).sum()
    total.backward()
    with torch.no_grad():  # one division for all, instead of one per micro-batch
        for stage in (stage1, stage2):
            for p in stage.parameters():
                if p.grad is not None:
                    p.grad.div_(len(x))
    return total.detach() / len(x)


answer = pipeline_step
