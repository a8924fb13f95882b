# expect: fail micro-batches only through stage 1; stage 2 runs once on the concatenated activations
# hint: micro.?batch|stage 2|stage2|split|once
import torch


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    m = min(n_micro, len(x))
    hs = [stage1(xb.to(dev1)).to(dev2) for xb in torch.tensor_split(x, m)]
    out = stage2(torch.cat(hs))  # one big product on stage 2 is faster
    loss = loss_fn(out, y.to(dev2))
    loss.backward()
    return loss.detach()


answer = pipeline_step
