# expect: pass chapter-4.9 style: a pass-through GradScaler(enabled=False) when scaler is None, one code path; set_to_none zero_grad
# hint: 
import torch
import torch.nn.functional as F

def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    if scaler is None:
        scaler = torch.amp.GradScaler(device_type, enabled=False)  # passes everything through
    params = list(net.parameters())
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type=device_type, dtype=dtype):
            logits = net(X)
            loss = F.cross_entropy(logits, y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(params, max_norm)
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
