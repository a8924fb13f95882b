# expect: pass torch.autocast alias built with functools.partial, backward/update strategy closures chosen once
# hint:
import functools

import torch
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    forward_ctx = functools.partial(torch.autocast, device_type=device_type, dtype=dtype)
    clip = functools.partial(clip_grad_norm_, max_norm=max_norm)

    if scaler is None:  # bfloat16: fp32's range, nothing to scale

        def backward_and_step(loss):
            loss.backward()
            clip(net.parameters())
            opt.step()

    else:  # float16: scale, unscale before clipping, step through the scaler, update

        def backward_and_step(loss):
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
        backward_and_step(loss)
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
