# expect: fail nan_to_num_ on the scaled gradients before unscale_ hides an fp16 overflow: no skipped step, the scale never backs off
# hint: inf|nan|overflow|skip|non-?finite
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            for p in net.parameters():  # "sanitize" the fp16 gradients right after backward
                if p.grad is not None:
                    p.grad.nan_to_num_(nan=0.0)
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
