# expect: fail builds its own fresh GradScaler each call instead of using the one passed: the caller's scaler and its scale are never used or updated
# hint: (given|passed|caller|argument|own|new|fresh|creat|instead).{0,60}scaler|scaler.{0,60}(given|passed|caller|argument|state|never|unused|not used)
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; float16 gets a GradScaler set up for this device."""
    if scaler is not None:  # float16: a scaler made for exactly this device type
        scaler = torch.amp.GradScaler(device_type)
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
