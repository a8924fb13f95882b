# expect: fail float16: returns the scaled losses (scaler.scale(loss)), thousands of times too large
# hint: scale|loss
import torch
import torch.nn.functional as F

def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            loss = scaler.scale(loss)
            loss.backward()
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
