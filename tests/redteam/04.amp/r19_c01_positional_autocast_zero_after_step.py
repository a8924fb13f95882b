# expect: pass torch.autocast(device_type, dtype) with dtype positional, zero_grad once before the loop and after every step
# hint: 
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    params = list(net.parameters())
    opt.zero_grad(set_to_none=True)  # start clean
    losses = []
    for X, y in batches:
        with torch.autocast(device_type, dtype):
            out = net(X)
            loss = F.cross_entropy(out, y)
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(params, max_norm)
            scaler.step(opt)
            scaler.update()
        opt.zero_grad(set_to_none=True)  # ready for the next step
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
