# expect: pass clipping split into get_total_norm + clip_grads_with_norm_, iterator loop with next(), losses in a generator-built list
# hint:
import torch
import torch.nn.functional as F
from torch.nn.utils import clip_grads_with_norm_, get_total_norm


def _clip(net, max_norm):
    params = [p for p in net.parameters() if p.grad is not None]
    total = get_total_norm([p.grad for p in params])  # a device tensor: no host read
    clip_grads_with_norm_(params, max_norm, total)


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    use_scaler = scaler is not None
    losses = []
    it = iter(batches)
    while True:
        try:
            X, y = next(it)
        except StopIteration:
            break
        with torch.amp.autocast(device_type, dtype=dtype, cache_enabled=True):
            out = net(X)
            loss = F.cross_entropy(out, y)
        opt.zero_grad()
        (scaler.scale(loss) if use_scaler else loss).backward()
        if use_scaler:
            scaler.unscale_(opt)
        _clip(net, max_norm)
        if use_scaler:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
