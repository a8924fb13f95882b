# expect: fail an assert on every micro-batch's loss is a host read (bool of a device tensor) per micro-batch
# hint: host|read|sync|wait|bool|item
import torch
from d2lgpu.pipeline import micro_batches


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2)) * (len(xb) / len(x))
        assert torch.isfinite(loss).all(), "non-finite micro-batch loss"
        losses.append(loss)
    total = sum(losses)
    total.backward()
    return total.detach()


answer = pipeline_step
