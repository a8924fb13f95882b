# expect: fail opt.step() instead of scaler.step(opt): a step whose fp16 gradients overflowed is applied, not skipped
# hint: scaler\.step|skip|overflow|\binf|nan|non-?finite
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """'After unscale_ the gradients are plain again, so the plain opt.step() will do.'"""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()  # never skipped, even when a gradient is inf
        if scaler is not None:
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
