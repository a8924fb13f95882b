# expect: fail clips every parameter tensor on its own (clip_grad_norm_ called per parameter), so each tensor's norm is capped at max_norm instead of the total norm over all parameters: different gradients whenever the total norm exceeds max_norm.
# hint: (total|global|overall|joint) (gradient )?norm|all (the )?parameters (together|at once)|per[- ](parameter|tensor)|each (parameter|tensor)|separately|one (call|clip)
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        else:
            loss.backward()
        for p in net.parameters():  # keep every gradient under max_norm
            if p.grad is not None:
                nn.utils.clip_grad_norm_(p, max_norm)
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
