# expect: pass prints a summary of the first and last loss after the loop: the prompt forbids host reads in the loop (.item(), float(loss)), not one after it, and returns the losses on the device as train_fp32 does
# hint: 
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    losses = []
    for X, y in batches:
        opt.zero_grad()
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        if scaler is None:
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    losses = torch.stack(losses)
    print(f"{dtype}: loss {losses[0]:.4f} -> {losses[-1]:.4f} in {len(losses)} steps")
    return losses


answer = train_amp
