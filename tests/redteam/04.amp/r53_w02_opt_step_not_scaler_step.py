# expect: fail opt.step() instead of scaler.step(opt) after unscale_: an overflowed (inf) step is not skipped
# hint: scaler\.step|skip|overflow|\binf\b|non-?finite
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; the gradients are already unscaled, so a plain opt.step()."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)  # grads are true gradients now
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()  # already unscaled: no need to go through the scaler
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
