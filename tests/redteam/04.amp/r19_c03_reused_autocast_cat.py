# expect: pass one autocast object made before the loop and re-entered each step, losses grown on the device with torch.cat
# hint: 
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    mixed = torch.amp.autocast(device_type, dtype=dtype)
    losses = None
    for X, y in batches:
        opt.zero_grad()
        with mixed:
            loss = F.cross_entropy(net(X), y)
        if scaler:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        else:
            loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        if scaler:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        step_loss = loss.detach().reshape(1)
        losses = step_loss if losses is None else torch.cat([losses, step_loss])
    return losses


answer = train_amp
