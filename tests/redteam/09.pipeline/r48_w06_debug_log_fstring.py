# expect: fail a logging.debug f-string formats each micro-batch's loss: a host read per micro-batch, even with debug off
# hint: host|read|sync|wait|print|format|log|item
import logging

import torch
from d2lgpu.pipeline import micro_batches

log = logging.getLogger("pipeline")


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    losses = []
    for i, (xb, yb) in enumerate(zip(micro_batches(x, n_micro), micro_batches(y, n_micro))):
        out = stage2(stage1(xb.to(dev1)).to(dev2))
        loss = loss_fn(out, yb.to(dev2))
        log.debug(f"micro-batch {i}: {len(xb)} rows, loss {loss:.4f}")  # off unless DEBUG
        losses.append(loss * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    total.backward()
    return total.detach()


answer = pipeline_step
