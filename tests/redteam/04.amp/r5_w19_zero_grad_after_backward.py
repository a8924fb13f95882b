# expect: fail opt.zero_grad() placed after backward, before clipping and the step: the step sees zero gradients
# hint: zero_grad|zero|gradient
import torch
import torch.nn.functional as F

def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        if scaler is not None:
            scaler.scale(loss).backward()
            opt.zero_grad()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            opt.zero_grad()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
