# expect: pass the losses written into a preallocated device tensor with index assignment (no list), params gathered once, clipping with an explicit norm_type=2.0
# hint:
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    batches = list(batches)
    params = [p for p in net.parameters()]
    out = None
    for i, (X, y) in enumerate(batches):
        with torch.amp.autocast(device_type=device_type, dtype=dtype):
            logits = net(X)
            loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type=2.0)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(params, max_norm, norm_type=2.0)
            scaler.step(opt)
            scaler.update()
        if out is None:  # on the loss's own device and dtype
            out = loss.new_empty(len(batches))
        out[i] = loss.detach()  # a device-side copy, no host read
    if out is None:
        return torch.stack([])
    return out


answer = train_amp
