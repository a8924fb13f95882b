# expect: fail clips after the optimizer step, so the step uses unclipped gradients
# hint: clip\w*.{0,60}(after|before).{0,30}step|step.{0,60}(after|before).{0,30}clip|clip.{0,40}(order|no effect)|unclipped
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
            scaler.unscale_(opt)
            scaler.step(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.update()
        else:
            loss.backward()
            opt.step()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
