# expect: pass one straight-line step through four callables bound once to the scaler's methods or to no-ops
# hint: 
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    if scaler is not None:
        scale, unscale, step, update = scaler.scale, scaler.unscale_, scaler.step, scaler.update
    else:
        scale = lambda t: t  # noqa: E731
        unscale = lambda o: None  # noqa: E731
        step = lambda o: o.step()  # noqa: E731
        update = lambda: None  # noqa: E731
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type=device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        scale(loss).backward()
        unscale(opt)
        nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
        step(opt)
        update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
