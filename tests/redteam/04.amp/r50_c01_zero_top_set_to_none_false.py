# expect: pass zero_grad(set_to_none=False) at the top of the loop, before the forward pass
# hint:
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Zeroes the gradients in place first thing in each step, then forward under autocast."""
    losses = []
    for X, y in batches:
        opt.zero_grad(set_to_none=False)
        with torch.amp.autocast(device_type, dtype=dtype):
            logits = net(X)
            loss = F.cross_entropy(logits, y)
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
