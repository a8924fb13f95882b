# expect: pass
# hint:
# Right: autocast used as a decorator of a forward-and-loss helper (only that runs under it);
# net.zero_grad() instead of opt.zero_grad() (the optimizer holds all of net's parameters).
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    @torch.amp.autocast(device_type, dtype=dtype)
    def forward_loss(X, y):
        return F.cross_entropy(net(X), y)

    fp16 = scaler is not None
    params = list(net.parameters())
    losses = []
    for X, y in batches:
        loss = forward_loss(X, y)
        net.zero_grad(set_to_none=True)
        (scaler.scale(loss) if fp16 else loss).backward()
        if fp16:
            scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(params, max_norm=max_norm)
        if fp16:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
