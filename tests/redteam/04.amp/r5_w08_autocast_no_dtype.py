# expect: fail autocast without dtype=dtype: runs the device's default (bfloat16 on the CPU, float16 on CUDA), not the dtype asked for
# hint: dtype|float16|bfloat16
import torch
import torch.nn.functional as F

def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type):
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
