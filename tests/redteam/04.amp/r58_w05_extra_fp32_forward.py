# expect: fail records a second, float32 forward pass of each batch (outside autocast, under no_grad) as the loss, so every step runs the model twice and the returned losses are not the autocast losses
# hint: forward|twice|extra|second|float32 loss|fp32 loss|outside autocast|no_grad
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        with torch.no_grad():  # log the float32 loss, comparable with train_fp32's
            losses.append(F.cross_entropy(net(X), y))
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
    return torch.stack(losses)


answer = train_amp
