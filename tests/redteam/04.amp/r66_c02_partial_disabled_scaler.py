# expect: pass
# hint:
# Right: the chapter's section 4.9 pattern, one code path: for bf16 a disabled GradScaler
# (enabled=False) passes scale/unscale_/step/update through, so it is loss.backward(), clip, opt.step().
import functools

import torch
import torch.nn.functional as F
from torch import nn


def _train(net, batches, opt, device_type, dtype, scaler, max_norm=1.0, *, loss_fn):
    if scaler is None:  # bf16: a pass-through scaler, no scaling at all
        scaler = torch.amp.GradScaler(device_type, enabled=False)
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):  # forward and loss only
            loss = loss_fn(net(X), y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)  # before clipping (a no-op when disabled)
        nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = functools.partial(_train, loss_fn=F.cross_entropy)
