# expect: pass a nested step function mapped over the batches with itertools.starmap, torch.autocast alias, torch.autograd.backward
# hint: 
import itertools

import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    use_scaler = scaler is not None

    def step(X, y):
        opt.zero_grad()
        with torch.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        torch.autograd.backward(scaler.scale(loss) if use_scaler else loss)
        if use_scaler:
            scaler.unscale_(opt)  # the true gradients, before clipping
        nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
        if use_scaler:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        return loss.detach()

    return torch.stack(tuple(itertools.starmap(step, batches)))


answer = train_amp
