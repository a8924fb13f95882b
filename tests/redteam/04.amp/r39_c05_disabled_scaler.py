# expect: pass one code path with a disabled GradScaler (torch.amp.GradScaler(enabled=False)) standing in for scaler=None: scale/unscale_/update are no-ops and step calls opt.step() (the AMP recipe's common idiom)
# hint: 
import torch
import torch.nn.functional as F
def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    if scaler is None:
        scaler = torch.amp.GradScaler(device_type, enabled=False)
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)
