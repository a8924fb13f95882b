# expect: fail sets the process-wide autocast dtype with torch.set_autocast_dtype and never puts it back
# hint: autocast.{0,30}(dtype|setting)|set_autocast|process|put back|restor|changed|left
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    torch.set_autocast_dtype(device_type, dtype)  # say it once, not at every step
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type):  # uses the dtype set above
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
