# expect: pass zip(itertools.count(1), batches), and a print after the loop that reads nothing from the device
# hint:
import itertools

import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Counts the steps on the host and reports how many ran, once, after the loop."""
    losses = []
    steps = 0
    for steps, (X, y) in zip(itertools.count(1), batches):
        with torch.amp.autocast(device_type, dtype=dtype):
            out = net(X)
            loss = F.cross_entropy(out, y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    print(f"train_amp: {steps} steps under {dtype} autocast ({'GradScaler' if scaler else 'no scaler'})")
    return torch.stack(losses)


answer = train_amp
