# expect: fail moves both stages to the CPU (where the batch is) for the step, and back after: no work on the stages' devices
# hint: device|cpu|moved|placement|\.to\(|where the (stage|parameters)
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    stage1.to(x.device)  # one device for the step: no copies between them
    stage2.to(x.device)
    try:
        losses = []
        for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
            out = stage2(stage1(xb))
            losses.append(loss_fn(out, yb) * (len(xb) / len(x)))
        total = torch.stack(losses).sum()
        total.backward()
    finally:  # the caller's placement, gradients included, put back
        stage1.to(dev1)
        stage2.to(dev2)
    return total.detach()


answer = pipeline_step
