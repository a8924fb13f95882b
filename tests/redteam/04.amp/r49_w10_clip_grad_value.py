# expect: fail clip_grad_value_ (clamps each gradient entry to ±max_norm) in place of clip_grad_norm_ (rescales the whole norm)
# hint: clip_grad_norm|clip_grad_value|norm|value|clamp
import torch
import torch.nn.functional as F
from torch.nn.utils import clip_grad_value_


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            clip_grad_value_(net.parameters(), max_norm)  # "gradient clipping", the cheap kind
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            clip_grad_value_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
