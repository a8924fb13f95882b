# expect: pass torch.autocast keyword spelling, a nested helper for the update
# hint: 
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    params = list(net.parameters())

    def update(loss):
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, max_norm)
            opt.step()
            return
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(params, max_norm)
        scaler.step(opt)
        scaler.update()

    losses = []
    for X, y in batches:
        with torch.autocast(device_type=device_type, dtype=dtype):
            out = net(X)
            loss = F.cross_entropy(out, y)
        opt.zero_grad(set_to_none=True)
        update(loss)
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
