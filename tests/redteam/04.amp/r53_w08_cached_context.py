# expect: fail autocast context cached per device type across calls: a later call with another dtype reuses the first call's dtype
# hint: dtype|float16|bfloat16|half
import torch
import torch.nn.functional as F

_AUTOCAST = {}  # one context per device type, built once and reused


def _autocast(device_type, dtype):
    if device_type not in _AUTOCAST:
        _AUTOCAST[device_type] = torch.amp.autocast(device_type, dtype=dtype)
    return _AUTOCAST[device_type]


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast, reusing one autocast context per device."""
    losses = []
    for X, y in batches:
        with _autocast(device_type, dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
