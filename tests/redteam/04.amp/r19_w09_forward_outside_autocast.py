# expect: fail net(X) runs before the autocast block and only the loss inside: the forward pass stays float32, nothing runs in 16 bits
# hint: forward.{0,40}(outside|before|not (in|under))|net\(X\).{0,30}(outside|autocast)|(outside|before).{0,20}autocast|float32 (forward|matmul|product)|16.?bit|autocast.{0,30}(only|loss)|float32 outputs|inside torch\.amp\.autocast
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    losses = []
    for X, y in batches:
        logits = net(X)
        with torch.amp.autocast(device_type, dtype=dtype):
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
