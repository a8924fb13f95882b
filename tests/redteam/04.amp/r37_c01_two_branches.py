# expect: pass one loop, an if/else on scaler for the backward/clip/step part
# hint:
# name: train_amp
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    record = []
    for inputs, labels in batches:
        opt.zero_grad(set_to_none=True)
        with torch.amp.autocast(device_type, dtype=dtype):
            logits = net(inputs)
            loss = F.cross_entropy(logits, labels)
        if scaler is None:  # bfloat16: same range as float32, no scaling
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:  # float16: scale, unscale before clipping, step, update
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        record.append(loss.detach())
    return torch.stack(record)
