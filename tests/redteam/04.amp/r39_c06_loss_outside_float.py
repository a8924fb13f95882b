# expect: pass loss computed after the autocast block on out.float() (same float32 cross-entropy autocast would run); prompt says 'the forward pass and the loss run under autocast'
# hint: 
import torch
import torch.nn.functional as F
def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            out = net(X)
        loss = F.cross_entropy(out.float(), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward(); scaler.unscale_(opt)
        else:
            loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        if scaler is not None:
            scaler.step(opt); scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
