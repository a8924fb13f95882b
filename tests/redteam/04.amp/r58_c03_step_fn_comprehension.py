# expect: pass a nested one-step function mapped over the batches in a list comprehension, torch.autocast spelling, zero_grad(set_to_none=True) on the module, dtype branch written as "scaler is not None"
# hint:
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    scaled = scaler is not None

    def one_step(X, y):
        net.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        (scaler.scale(loss) if scaled else loss).backward()
        if scaled:
            scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
        if scaled:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        return loss.detach()

    return torch.stack([one_step(X, y) for X, y in batches])


answer = train_amp
