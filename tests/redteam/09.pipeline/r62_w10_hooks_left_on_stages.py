# expect: fail moves inputs with forward pre-hooks registered on the caller's stages and never removed: each call leaves one more hook on each module (the stages changed for good, a leak that grows per step)
# hint: hook|register|remov|handle|left|leak|module|modif|side.?effect|stage.*(changed|state)
import torch

from d2lgpu.pipeline import micro_batches


def _to_device(device):
    def move(module, args):
        return tuple(a.to(device) if isinstance(a, torch.Tensor) else a for a in args)

    return move


def pipeline_step(stage1, stage2, x, y, loss_fn, n_micro):
    dev1 = next(stage1.parameters()).device
    dev2 = next(stage2.parameters()).device
    # each stage moves what it receives onto its own device
    stage1.register_forward_pre_hook(_to_device(dev1))
    stage2.register_forward_pre_hook(_to_device(dev2))
    losses = []
    for xb, yb in zip(micro_batches(x, n_micro), micro_batches(y, n_micro), strict=True):
        out = stage2(stage1(xb))
        losses.append(loss_fn(out, yb.to(dev2)) * (len(xb) / len(x)))
    loss = torch.stack(losses).sum()
    loss.backward()
    return loss.detach()


answer = pipeline_step
