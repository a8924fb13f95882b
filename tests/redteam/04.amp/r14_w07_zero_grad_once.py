# expect: fail zero_grad once before the loop: gradients accumulate across steps
# hint: zero_grad|zero.{0,10}grad|accumulat
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    opt.zero_grad()  # start from clean gradients
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
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
