# expect: pass forward wrapped by autocast as a function decorator; clip_grad_norm_ on a list of grads' params; while loop over an iterator
# hint: 
import torch
import torch.nn.functional as F


import functools


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    @torch.autocast(device_type, dtype=dtype)
    def loss_of(X, y):
        return F.cross_entropy(net(X), y)

    use_scaler = scaler is not None
    params = [p for p in net.parameters()]
    clip = functools.partial(torch.nn.utils.clip_grad_norm_, params, max_norm)
    losses = []
    it = iter(batches)
    while True:
        try:
            X, y = next(it)
        except StopIteration:
            break
        loss = loss_of(X, y)
        for p in params:
            p.grad = None
        (scaler.scale(loss) if use_scaler else loss).backward()
        if use_scaler:
            scaler.unscale_(opt)
        clip()
        if use_scaler:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
