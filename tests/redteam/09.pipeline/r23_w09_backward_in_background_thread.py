# expect: fail the backward is started in a background thread that is never joined, so the step returns (and the caller reads .grad or steps the optimizer) while the gradients may still be being written: a race, right only when the thread happens to finish first
# hint: thread|join|wait|race|background|finish|return
import threading

import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)).to(d2))
        losses.append(loss_fn(out, yb.to(d2)) * (len(xb) / len(x)))
    total = torch.stack(losses).sum()
    # the backward runs while the caller goes on (logging, the next batch's loading...)
    threading.Thread(target=total.backward, daemon=True).start()
    return total.detach()
