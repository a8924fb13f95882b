# expect: fail scaler.update() once after the loop, not every step: the second step raises (unscale_ after step) and the scale never adapts
# hint: update|after step
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Calls scaler.update() once, at the end ('the scale only needs adjusting per epoch')."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
        losses.append(loss.detach())
    if scaler is not None:
        scaler.update()
    return torch.stack(losses)


answer = train_amp
