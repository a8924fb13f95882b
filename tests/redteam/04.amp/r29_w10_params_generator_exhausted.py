# expect: fail net.parameters() is taken once, before the loop, as a generator; the first clip_grad_norm_ exhausts it, so from the second step on nothing is clipped. Shows when clipping is active on later steps.
# hint: generator|exhaust|iterat(or|ed) once|(only|just) (on |at )?the first step|after the first step|later steps|every step.*clip|clip.*every step|net\.parameters\(\)
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    params = net.parameters()  # hoisted out of the loop: no need to rebuild it every step
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            nn.utils.clip_grad_norm_(params, max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(params, max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
