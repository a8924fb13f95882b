# expect: pass pass concatenates the micro-batches' outputs on stage 2's device and computes loss_fn once over the whole batch (a mean over all rows, so no weights needed)
# hint: 
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    d1, d2 = next(stage1.parameters()).device, next(stage2.parameters()).device
    outs = [stage2(stage1(xb.to(d1)).to(d2)) for xb in torch.tensor_split(x, min(n_micro, len(x)))]
    loss = loss_fn(torch.cat(outs), y.to(d2))
    loss.backward()
    return loss.detach()


answer = pipeline_step
