# expect: pass one code path: for bfloat16 a GradScaler(enabled=False), which passes scale/unscale_/step/update straight through
# hint:
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """A disabled scaler stands in for None: scale() returns the loss, step() calls opt.step()."""
    grad_scaler = scaler if scaler is not None else torch.amp.GradScaler(device_type, enabled=False)
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        grad_scaler.scale(loss).backward()
        grad_scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        grad_scaler.step(opt)
        grad_scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
