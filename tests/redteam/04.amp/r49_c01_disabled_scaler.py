# expect: pass one code path: a disabled GradScaler stands in for the missing one (bf16)
# hint: 
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """One step for both dtypes: GradScaler(enabled=False) passes everything through."""
    if scaler is None:  # bf16: a disabled scaler is loss.backward(), opt.step(), no-ops
        scaler = torch.amp.GradScaler(device_type, enabled=False)
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
