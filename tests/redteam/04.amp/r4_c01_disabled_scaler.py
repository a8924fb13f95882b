# expect: pass one code path: a disabled GradScaler stands in for None under bfloat16
# hint: 
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    s = scaler if scaler is not None else torch.amp.GradScaler(device_type, enabled=False)
    losses = []
    for X, y in batches:
        opt.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device_type, dtype=dtype):
            out = net(X)
            loss = F.cross_entropy(out, y)
        s.scale(loss).backward()
        s.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(list(net.parameters()), max_norm=max_norm)
        s.step(opt)
        s.update()
        losses.append(loss.detach())
    return torch.stack(losses)
