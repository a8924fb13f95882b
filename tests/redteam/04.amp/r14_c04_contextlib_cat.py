# expect: pass autocast entered through contextlib.ExitStack, clip returned norm unused, losses joined with torch.cat
# hint: 
import contextlib

import torch
import torch.nn.functional as F
from torch.nn.utils import clip_grad_norm_


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    chunks = []
    params = [p for p in net.parameters()]
    for X, y in batches:
        opt.zero_grad()
        with contextlib.ExitStack() as stack:
            stack.enter_context(torch.amp.autocast(device_type, dtype=dtype))
            loss = F.cross_entropy(net(X), y)
        to_backward = loss if scaler is None else scaler.scale(loss)
        to_backward.backward()
        if scaler is not None:
            scaler.unscale_(opt)
        _norm = clip_grad_norm_(params, max_norm)  # kept on the device, never read
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        chunks.append(loss.detach().reshape(1))
    return torch.cat(chunks)


answer = train_amp
