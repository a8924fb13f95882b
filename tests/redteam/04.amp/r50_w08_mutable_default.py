# expect: fail state kept between calls: a mutable default list collects the losses of every call, so the second call returns too many
# hint: state|between calls|previous call|earlier call|length|shape|too many|number of (steps|losses)
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0, losses=[]):  # noqa: B006
    """The losses list is a default argument, created once and shared by all calls."""
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
