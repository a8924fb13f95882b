# expect: fail builds its own GradScaler each call instead of using the one passed in (its scale state is lost)
# hint: scaler.{0,40}(given|passed|argument|new|own|fresh|same|creat|untouched|unused|never used)|(new|fresh|own|creat\w*|another).{0,30}(GradScaler|scaler)
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    if scaler is not None:
        scaler = torch.amp.GradScaler(device_type)  # a clean scaler for this run
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
