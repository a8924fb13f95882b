# expect: fail the float16 branch never clips (unscale_ then straight to scaler.step): only bfloat16 is clipped
# hint: clip|max_norm|clip_grad_norm_?
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
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
            losses.append(loss.detach())
            continue
        scaler.scale(loss).backward()
        scaler.unscale_(opt)  # true gradients for the step
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
