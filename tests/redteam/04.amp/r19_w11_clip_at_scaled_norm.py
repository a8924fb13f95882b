# expect: fail no unscale_: clips the still-scaled gradients at max_norm * scaler.get_scale(), a host read of the scale every step (same numbers otherwise)
# hint: get_scale|unscale_|host read|sync|\.item|max_norm \*|scaled (gradients|threshold)|still scaled
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
            # the gradients are S times too large: clip them at S times the norm
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm * scaler.get_scale())
            scaler.step(opt)  # unscales, then steps
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
