# expect: pass
# hint:
# Right: torch.autocast (the same class as torch.amp.autocast) with keyword arguments,
# a generator of per-step losses consumed by torch.stack, clipping with foreach=True.
import torch
import torch.nn.functional as F


def _steps(net, batches, opt, device_type, dtype, scaler, max_norm):
    for X, y in batches:
        with torch.autocast(device_type=device_type, dtype=dtype):
            logits = net(X)
            loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, foreach=True)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, foreach=True)
            opt.step()
        yield loss.detach()


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    return torch.stack(list(_steps(net, batches, opt, device_type, dtype, scaler, max_norm)))
