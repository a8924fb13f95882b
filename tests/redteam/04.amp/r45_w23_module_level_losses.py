# expect: fail keeps the loss list at module level, so a second call returns the first call's losses too
# hint: len|length|number of|previous|between calls|state|expected \d+|shape|\d+ loss
import torch
import torch.nn.functional as F


_losses = []  # the log of the run


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
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
        _losses.append(loss.detach())
    return torch.stack(_losses)


answer = train_amp
