# expect: fail clips after the optimizer step (and no unscale_): the clipped gradients are never used
# hint: clip|before|step|unscale
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
            scaler.step(opt)
            scaler.update()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)  # tidy up the gradients
        else:
            loss.backward()
            opt.step()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
