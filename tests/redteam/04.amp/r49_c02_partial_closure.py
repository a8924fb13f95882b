# expect: pass functools.partial for the autocast context, a nested step closure, a comprehension
# hint: 
import functools

import torch
import torch.nn.functional as F
from torch import nn

_autocast = torch.autocast  # the same class as torch.amp.autocast, bound at import


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    forward_ctx = functools.partial(_autocast, device_type=device_type, dtype=dtype)
    clip = functools.partial(nn.utils.clip_grad_norm_, max_norm=max_norm)
    params = [p for p in net.parameters()]

    def step(X, y):
        with forward_ctx():
            logits = net(X)
            loss = F.cross_entropy(logits.float(), y)  # an explicit fp32 loss: harmless
        opt.zero_grad(set_to_none=False)
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            clip(params)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            clip(params)
            opt.step()
        return loss.detach()

    return torch.stack([step(X, y) for X, y in batches])


answer = train_amp
