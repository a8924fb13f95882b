# expect: fail deprecated torch.cuda.amp.autocast ignores device_type: no autocast off CUDA
# hint: device.?type|torch\.cuda\.amp|deprecat|autocast (was )?(not|never|off)|no autocast
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.cuda.amp.autocast(dtype=dtype):  # the nanoGPT spelling: CUDA only
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
