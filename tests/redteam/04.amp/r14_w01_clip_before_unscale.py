# expect: fail clips the still-scaled gradients: unscale_ comes after clip_grad_norm_
# hint: unscale_?.{0,40}before.{0,20}clip|clip.{0,40}(after|before).{0,20}unscal|still scaled|clip\w*.{0,30}scaled|scaled gradients|times the scale
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.unscale_(opt)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
