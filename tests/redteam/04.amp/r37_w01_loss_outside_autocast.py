# expect: fail the loss (cross_entropy) is computed outside autocast, on the low-precision logits
# hint: (loss.*(autocast|inside|under)|(autocast|inside|under).*loss|cross.?entropy)
# name: train_amp
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    history = []
    for inputs, targets in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            logits = net(inputs)
        loss = F.cross_entropy(logits, targets)
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
        history.append(loss.detach())
    return torch.stack(history)
