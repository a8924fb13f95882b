# expect: fail opt.step() runs after the if/else for both branches, so float16 steps twice (scaler.step already stepped), and steps even when the scaler skipped an overflowed step
# hint: (step(ped|s)?|optimi[sz]er).{0,30}(twice|two|double|again)|double.{0,10}step|opt\.step.{0,40}(after|as well|also|both|scaler\.step)|skip(ped)? step|overflow
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
