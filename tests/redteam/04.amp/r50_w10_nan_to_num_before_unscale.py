# expect: fail gradients 'sanitized' with nan_to_num_ before unscale_: an overflowed fp16 step is no longer detected or skipped, and the scale never backs off
# hint: overflow|\binf|nan|non-?finite|skip|nan_to_num|scale
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Replaces inf/NaN gradients by large finite numbers 'for robustness', hiding overflows from the scaler."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
            for p in net.parameters():
                if p.grad is not None:
                    p.grad.nan_to_num_(nan=0.0)
            scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
