# expect: fail moves stage 1's output with a forward hook registered on the caller's stage 1 at every call and never removed: the hooks pile up (one more copy call per micro-batch at each step), and after the step stage 1 keeps sending its output to stage 2's device for anyone who calls it
# hint: hook|remove|handle|pile|accumulat|every call|left|side.?effect|caller
import torch

from d2lgpu.pipeline import micro_batches


def answer(stage1, stage2, x, y, loss_fn, n_micro):
    d1 = next(stage1.parameters()).device
    d2 = next(stage2.parameters()).device
    # the cut as a hook: whatever stage 1 returns lands on stage 2's device
    stage1.register_forward_hook(lambda module, args, out: out.to(d2))
    total = 0
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro)):
        out = stage2(stage1(xb.to(d1)))
        total = total + loss_fn(out, yb.to(d2)) * (len(xb) / len(x))
    total.backward()
    return total.detach()
