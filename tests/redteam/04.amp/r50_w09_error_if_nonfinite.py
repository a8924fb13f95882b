# expect: fail clip_grad_norm_(error_if_nonfinite=True): raises on an overflowed fp16 step that scaler.step should skip (and its check reads the norm on the host every step)
# hint: overflow|\binf|non-?finite|skip|raise|error|exception|host|sync|read
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """'Be strict': clipping raises on a non-finite norm, which a GradScaler's first steps can produce."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=True)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=True)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
