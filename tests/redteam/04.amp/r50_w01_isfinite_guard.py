# expect: fail host read in the loop: `if not torch.isfinite(loss)` reads the loss on the host every step
# hint: host|sync|\.item|read|bool|cpu wait
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Skips a batch whose loss is not finite (a 'safety' guard): an `if` on a tensor is a host read."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        losses.append(loss.detach())
        if not torch.isfinite(loss):  # Tensor.__bool__: the CPU waits for the GPU here
            continue
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
    return torch.stack(losses)


answer = train_amp
