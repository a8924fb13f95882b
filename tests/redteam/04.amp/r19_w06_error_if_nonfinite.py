# expect: fail clip_grad_norm_(..., error_if_nonfinite=True) raises on the inf gradients of an overflowed float16 step instead of letting scaler.step skip it
# hint: error_if_nonfinite|rais|exception|error|inf|overflow|non.?finite|skip
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
            nn.utils.clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=True)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=True)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
