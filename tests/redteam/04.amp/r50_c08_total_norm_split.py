# expect: pass clipping split into get_total_norm + clip_grads_with_norm_ (what clip_grad_norm_ does), a generator of losses
# hint:
import torch
import torch.nn.functional as F
from torch.nn.utils import clip_grads_with_norm_, get_total_norm


def _clip(net, max_norm):
    params = [p for p in net.parameters() if p.grad is not None]
    total = get_total_norm([p.grad for p in params], norm_type=2.0)
    clip_grads_with_norm_(params, max_norm, total)


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Yields each step's detached loss from a generator; torch.stack gathers them at the end."""

    def steps():
        for X, y in batches:
            with torch.amp.autocast(device_type=device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            if scaler is None:
                loss.backward()
                _clip(net, max_norm)
                opt.step()
            else:
                scaled = scaler.scale(loss)
                scaled.backward()
                scaler.unscale_(opt)
                _clip(net, max_norm)
                scaler.step(opt)
                scaler.update()
            yield loss.detach()

    return torch.stack(tuple(steps()))


answer = train_amp
