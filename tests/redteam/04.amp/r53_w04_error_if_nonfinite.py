# expect: fail clip_grad_norm_(error_if_nonfinite=True): a host sync every step, and it raises on an fp16 overflow the scaler should skip
# hint: sync|host|read|non-?finite|overflow|raise|error_if
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; clipping refuses NaN/inf gradients loudly."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        else:
            loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=True)
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
