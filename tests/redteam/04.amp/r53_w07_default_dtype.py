# expect: fail autocast(device_type) without dtype=: the device's default (cuda float16, cpu bfloat16), not the dtype asked for
# hint: dtype|float16|bfloat16|half
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; the scaler decides fp16 vs bf16 handling."""
    losses = []
    autocast = torch.amp.autocast(device_type)  # autocast picks the device's 16-bit type
    for X, y in batches:
        with autocast:
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
