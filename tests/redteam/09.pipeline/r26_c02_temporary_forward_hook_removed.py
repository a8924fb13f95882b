# expect: pass stage 1's output moved by a forward hook that lives only for this step (its handle removed in finally, so nothing stays on the caller's module), every forward before the one backward
# hint: 
import torch

from d2lgpu.pipeline import micro_batches as cut


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    handle = stage1.register_forward_hook(lambda module, args, out: out.to(d2))
    try:
        terms = [
            loss_fn(stage2(stage1(xb.to(d1))), yb.to(d2)) * (len(xb) / len(x))
            for xb, yb in zip(cut(x, n_micro), cut(y, n_micro))
        ]
    finally:
        handle.remove()
    total = torch.stack(terms).sum()
    total.backward()
    return total.detach()
