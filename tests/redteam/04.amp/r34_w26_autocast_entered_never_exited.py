# expect: fail enters autocast once with __enter__() before the loop and never exits: autocast stays on for the backward and for the caller
# hint: autocast|exit|with|leave|restore
import torch
import torch.nn.functional as F

def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    torch.amp.autocast(device_type, dtype=dtype).__enter__()  # AMP on for the loop
    losses = []
    for X, y in batches:
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
