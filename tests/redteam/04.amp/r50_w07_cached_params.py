# expect: fail state kept between calls: the parameter list for clipping is cached from the first call's net, so a later net is clipped wrongly
# hint: clip|state|cache|previous|between calls|earlier call
import torch
import torch.nn.functional as F

_PARAMS = []  # built once: "list(net.parameters()) every step is wasteful"


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Caches the parameter list at module level; the second call clips the first call's net."""
    if not _PARAMS:
        _PARAMS.extend(net.parameters())
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(_PARAMS, max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(_PARAMS, max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
