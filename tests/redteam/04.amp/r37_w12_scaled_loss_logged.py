# expect: fail logs the scaled loss (loss * scale) instead of the true loss for float16
# hint: (scaled loss|loss.*scal|scal.*loss|unscaled|true loss|loss values?)
# name: train_amp
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        opt.zero_grad()
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        if scaler is not None:
            loss = scaler.scale(loss)
        loss.backward()
        if scaler is not None:
            scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
