# expect: pass a generator of per-step losses, positional autocast dtype, an explicit set_to_none and extra harmless device-side work
# hint: 
import torch
import torch.nn.functional as F


def _steps(net, batches, opt, device_type, dtype, scaler, max_norm):
    params = list(net.parameters())
    for X, y in batches:
        opt.zero_grad(set_to_none=True)
        with torch.amp.autocast(device_type, dtype):  # dtype is autocast's 2nd parameter
            out = net(X)
            loss = F.cross_entropy(out, y, reduction="mean")
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        norm = torch.nn.utils.clip_grad_norm_(params, max_norm=max_norm)
        _ = torch.isfinite(norm)  # device-side only, never read on the host
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        yield loss.detach()


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    return torch.stack(list(_steps(net, batches, opt, device_type, dtype, scaler, max_norm)))


answer = train_amp
