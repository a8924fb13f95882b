# expect: fail ignores the GradScaler: the float16 run backpropagates the unscaled loss and steps with opt.step(), as for bfloat16
# hint: scal|GradScaler|underflow|scaler\.scale
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)  # the loss itself is float32 under autocast
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
