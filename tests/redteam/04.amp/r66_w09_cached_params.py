# expect: fail the parameter list for clipping is cached at module level on the first call, so a second call with another net clips the first net's gradients
# hint: second|again|another (net|model)|cache|stale|(clip|clipp).{0,60}(param|net|model|gradient)|not clipped|unclipped|max.?norm
# Wrong: clipping must apply to net's parameters (clip_grad_norm_(net.parameters(), max_norm)).
# The first call is right; later calls leave the new net's gradients unclipped.
import torch
import torch.nn.functional as F

_params = []  # built once: net.parameters() is a generator, list() it only once


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    if not _params:
        _params.extend(net.parameters())
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(_params, max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(_params, max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
