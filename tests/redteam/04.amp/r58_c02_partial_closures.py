# expect: pass functools.partial for the autocast context, and the backward/step chosen once as small closures before the loop
# hint:
# name: train_amp
import functools

import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    forward_ctx = functools.partial(torch.amp.autocast, device_type, dtype=dtype)
    clip = functools.partial(torch.nn.utils.clip_grad_norm_, max_norm=max_norm)

    if scaler is None:

        def update(loss):
            loss.backward()
            clip(net.parameters())
            opt.step()

    else:

        def update(loss):
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            clip(net.parameters())
            scaler.step(opt)
            scaler.update()

    losses = []
    for X, y in batches:
        with forward_ctx():
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        update(loss)
        losses.append(loss.detach())
    return torch.stack(losses)
