# expect: fail makes a new GradScaler every step (ignores the one passed in): the scale never adapts
# hint: scaler|GradScaler|given|passed
import torch
import torch.nn.functional as F
def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            s = torch.amp.GradScaler(device_type)
            s.scale(loss).backward()
            s.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            s.step(opt)
            s.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
