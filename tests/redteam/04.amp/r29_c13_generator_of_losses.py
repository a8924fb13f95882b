# expect: pass a generator that yields each step's detached loss, stacked by the caller-facing function; autocast context built per step by a helper
# hint: 
import torch
import torch.nn.functional as F
from torch import nn


def _steps(net, batches, opt, device_type, dtype, scaler, max_norm):
    for X, y in batches:
        opt.zero_grad(set_to_none=True)
        with torch.amp.autocast(device_type, dtype=dtype):
            out = net(X)
            loss = F.cross_entropy(out, y)
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        yield loss.detach()


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    return torch.stack(list(_steps(net, batches, opt, device_type, dtype, scaler, max_norm)))


answer = train_amp
