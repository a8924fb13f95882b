# expect: fail ignores the GradScaler: float16 backward without loss scaling
# hint: scal|GradScaler
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    # autocast keeps the loss in float32, so the plain backward is enough for both dtypes
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
