# expect: fail scaler.update() before scaler.step(opt): update clears the unscale_ record, so step unscales the first gradients a second time, and the next step's unscale_ raises (stage left at "stepped")
# hint: update.{0,40}(before|after).{0,20}step|step.{0,40}(before|after).{0,20}update|order|unscal\w*.{0,20}(twice|again|second)|divid\w* (twice|again)
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    losses = []
    for X, y in batches:
        opt.zero_grad(set_to_none=True)
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
            scaler.update()  # pick the next scale, then take the step
            scaler.step(opt)
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
