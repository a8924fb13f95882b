# expect: pass autocast used as a decorator on a nested forward function (only the forward and the loss run under it)
# hint:
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """The forward+loss function is wrapped by torch.autocast (the same class as torch.amp.autocast)."""

    @torch.autocast(device_type=device_type, dtype=dtype)
    def loss_of(X, y):
        return F.cross_entropy(net(X), y)

    losses = []
    it = iter(batches)
    while True:
        try:
            X, y = next(it)
        except StopIteration:
            break
        loss = loss_of(X, y)
        opt.zero_grad(set_to_none=True)
        (loss if scaler is None else scaler.scale(loss)).backward()
        if scaler is not None:
            scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
