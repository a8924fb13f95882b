# expect: fail only net(X) under autocast; cross_entropy runs after the with block on the 16-bit logits
# hint: loss.{0,60}(inside|under|within|autocast)|(inside|under|within).{0,60}loss|cross.?entropy
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 with the forward pass (the network) under autocast."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            logits = net(X)  # the forward pass, and only it
        loss = F.cross_entropy(logits, y)
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
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
