# expect: fail only the forward under autocast: the loss runs outside it, on 16-bit logits, in 16 bits
# hint: loss.{0,40}(autocast|outside|16|half|precision)|autocast.{0,40}loss|cross.?entropy
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            logits = net(X)  # "only the forward pass belongs inside the with block"
        loss = F.cross_entropy(logits, y)
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
