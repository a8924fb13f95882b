# expect: fail checks the gradients for inf itself each step (torch.isfinite(...).all() in an if) and only then steps/updates: a host read per step, and update() skipped on overflow so the scale never backs off
# hint: isfinite|host|read|update|bool
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
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            finite = all(torch.isfinite(p.grad).all() for p in net.parameters() if p.grad is not None)
            if finite:
                scaler.step(opt)
                scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
