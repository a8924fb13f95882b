# expect: fail clips the parameters of opt.param_groups[0] only, not net.parameters(): with an optimizer of several parameter groups (e.g. no weight decay on biases) the other groups are never clipped and the norm is computed on part of the model. Shows only with more than one param group.
# hint: param_groups|param(eter)? group|net\.parameters\(\)|(all|every|whole) (of the )?(model|net|parameters)|(some|part of the) parameters
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    losses = []
    for X, y in batches:
        opt.zero_grad(set_to_none=True)
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        trained = opt.param_groups[0]["params"]  # what the optimizer updates
        if scaler is None:
            loss.backward()
            nn.utils.clip_grad_norm_(trained, max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(trained, max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
