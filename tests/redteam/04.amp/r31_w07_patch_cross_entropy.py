# expect: fail monkeypatches torch.nn.functional.cross_entropy at module level (to compute in float32 under autocast) and leaves it patched
# hint: patch|cross_entropy|replac|functional
import torch
import torch.nn.functional as F

_cross_entropy = F.cross_entropy


def _cross_entropy_fp32(input, target, *args, **kwargs):
    return _cross_entropy(input.float(), target, *args, **kwargs)  # a safe loss in float32


F.cross_entropy = _cross_entropy_fp32  # every loss in float32 from now on


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
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
