# expect: fail divides the gradients by scaler.get_scale() by hand instead of scaler.unscale_: a host read each step, and scaler.step unscales them a second time
# hint: get_scale|unscale_|by hand|manual|(divid|unscal)\w*.{0,30}(twice|again|second)|host read|sync|\.item
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
            inv_scale = 1.0 / scaler.get_scale()
            for p in net.parameters():
                if p.grad is not None:
                    p.grad.mul_(inv_scale)  # true gradients before clipping
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
