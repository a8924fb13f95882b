# expect: fail bfloat16 (scaler=None) still scales: makes its own GradScaler, extra unscale/inf checks every step
# hint: bfloat16.{0,80}scal|scal.{0,80}bfloat16|bf16.{0,80}scal|scal.{0,80}bf16|scaler.{0,30}None|no scal
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; one code path, with a scaler for both dtypes (safe for bf16 too)."""
    if scaler is None:
        scaler = torch.amp.GradScaler(device_type)  # harmless for bf16, keeps one code path
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(opt)
        scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
