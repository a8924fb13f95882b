# expect: fail zero_grad after the step: the first step adds the gradients the model was handed with
# hint: zero_grad|stale|leftover|already|accumul|existing|previous grad
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Clears gradients at the end of each step ('clean up after yourself'), never before the first."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
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
        opt.zero_grad()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
