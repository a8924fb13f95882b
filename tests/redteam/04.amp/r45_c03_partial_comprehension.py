# expect: pass functools.partial for the clip, a step function in a list comprehension
# hint: 
import functools

import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    clip = functools.partial(torch.nn.utils.clip_grad_norm_, list(net.parameters()), max_norm=max_norm)
    amp = functools.partial(torch.amp.autocast, device_type, dtype=dtype)

    def step(X, y):
        with amp():
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        (loss if scaler is None else scaler.scale(loss)).backward()
        if scaler is not None:
            scaler.unscale_(opt)
        clip()
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        return loss.detach()

    return torch.stack([step(X, y) for X, y in batches])


answer = train_amp
