# expect: pass autocast entered through contextlib.ExitStack, keyword arguments, the clip norm returned and dropped unread
# hint:
import contextlib

import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    losses = []
    for X, y in batches:
        with contextlib.ExitStack() as stack:
            stack.enter_context(torch.amp.autocast(device_type, dtype=dtype))
            loss = F.cross_entropy(input=net(X), target=y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        norm = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        del norm  # a device tensor, never read on the host
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses, dim=0)


answer = train_amp
