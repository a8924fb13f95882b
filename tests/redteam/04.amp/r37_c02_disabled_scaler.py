# expect: pass a disabled GradScaler (enabled=False, a no-op) stands in for scaler=None, one code path
# hint:
# name: train_amp
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    # GradScaler(enabled=False): scale() returns the loss unchanged, unscale_() and update()
    # do nothing, step() is opt.step(): exactly the plain bfloat16 loop.
    gs = scaler if scaler is not None else torch.amp.GradScaler(device_type, enabled=False)
    params = list(net.parameters())
    per_step = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        gs.scale(loss).backward()
        gs.unscale_(opt)
        nn.utils.clip_grad_norm_(params, max_norm=max_norm)
        gs.step(opt)
        gs.update()
        per_step.append(loss.detach())
    return torch.stack(per_step)
