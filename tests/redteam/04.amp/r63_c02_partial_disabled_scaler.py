# expect: pass
# hint:
# Right: functools.partial over a general loop; bfloat16 runs through a *disabled* GradScaler
# (the chapter's section 4.9 form), whose scale/unscale_/update do nothing and whose step is
# opt.step(): exactly loss.backward(), clip, opt.step().
import functools

import torch
import torch.nn.functional as F
from torch import nn


def _amp_loop(net, batches, opt, device_type, dtype, scaler, max_norm=1.0, *, set_to_none):
    if scaler is None:  # bf16: a pass-through scaler, so one code path serves both
        scaler = torch.amp.GradScaler(device_type, enabled=False)
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad(set_to_none=set_to_none)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = functools.partial(_amp_loop, set_to_none=True)
