# expect: fail zero_grad after the step instead of before backward: the first step adds to gradients already on the parameters
# hint: zero_grad|stale|accumul|leftover|existing|previous grad
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; gradients freed right after each step (lower peak memory)."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
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
        opt.zero_grad(set_to_none=True)  # free the gradients as soon as they are used
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
