# expect: fail calls opt.step() as well as scaler.step(opt), so float16 steps are taken twice
# hint: (opt(imizer)?\.step|twice|double|two steps|both)
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
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        else:
            loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
