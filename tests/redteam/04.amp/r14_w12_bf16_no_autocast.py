# expect: fail autocast enabled only when there is a scaler: the bfloat16 run is plain float32
# hint: autocast.{0,40}(bfloat16|bf16|off|disabled|enabled|not|without|never)|(bfloat16|bf16).{0,60}(autocast|float32|fp32)|no autocast|without autocast
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    use_amp = scaler is not None  # mixed precision goes with the scaler
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype, enabled=use_amp):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if use_amp:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
