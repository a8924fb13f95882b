# expect: fail autocast is enabled only when a scaler is given, so the bfloat16 run is plain float32
# hint: bf16|bfloat16|autocast.{0,60}(off|disabled|not (on|active|enabled|used|run))|no autocast|(float32|fp32).{0,30}forward
# Wrong: section 4.9's enabled= trick misapplied: scaler is None means "bf16, no scaling",
# not "no autocast". The bf16 losses then equal float32's exactly, which looks fine.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    if scaler is None:
        scaler = torch.amp.GradScaler(device_type, enabled=False)
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype, enabled=scaler.is_enabled()):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)
