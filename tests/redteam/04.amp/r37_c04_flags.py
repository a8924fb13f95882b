# expect: pass boolean flag computed once, zero_grad(set_to_none=False) after the step, loss kept as a 1-element slice list then cat
# hint:
# name: train_amp
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    use_scaler = scaler is not None
    opt.zero_grad(set_to_none=True)  # start clean
    chunks = []
    for step_no, (features, target) in enumerate(batches):
        with torch.amp.autocast(device_type=device_type, dtype=dtype):
            loss = F.cross_entropy(net(features), target)
        (scaler.scale(loss) if use_scaler else loss).backward()
        if use_scaler:
            scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
        if use_scaler:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        opt.zero_grad(set_to_none=True)  # ready for the next step
        chunks.append(loss.detach().reshape(1))
    return torch.cat(chunks)
