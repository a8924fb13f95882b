# expect: pass losses written into a preallocated device tensor (made on the first step, on the loss's device and dtype), enumerate over the batches
# hint:
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Stores each loss with an index assignment on the device: a device copy, no host read."""
    batches = list(batches)  # batches may be any iterable; a length is needed up front
    losses = None
    for i, (X, y) in enumerate(batches):
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        if losses is None:
            losses = torch.empty(len(batches), dtype=loss.dtype, device=loss.device)
        losses[i] = loss.detach()
    if losses is None:  # no batches: fail as train_fp32's torch.stack([]) does
        return torch.stack([])
    return losses


answer = train_amp
