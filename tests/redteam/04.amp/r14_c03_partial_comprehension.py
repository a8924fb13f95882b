# expect: pass a step function bound with functools.partial, losses from a list comprehension, a print that reads nothing from the device
# hint: 
import functools

import torch
import torch.nn.functional as F


def _step(X, y, *, net, opt, device_type, dtype, scaler, max_norm):
    with torch.amp.autocast(device_type=device_type, dtype=dtype, enabled=True):
        out = net(X)
        loss = F.cross_entropy(out, y)
    opt.zero_grad()
    if scaler is not None:
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
    else:
        loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
    if scaler is not None:
        scaler.step(opt)
        scaler.update()
    else:
        opt.step()
    return loss.detach()


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    step = functools.partial(
        _step, net=net, opt=opt, device_type=device_type, dtype=dtype, scaler=scaler,
        max_norm=max_norm,
    )
    losses = [step(X, y) for X, y in batches]
    print(f"train_amp: {len(losses)} steps in {dtype} on {device_type}, "
          f"{'with' if scaler is not None else 'without'} a GradScaler")
    return torch.stack(losses)


answer = train_amp
