# expect: fail turns TF32 on with torch.set_float32_matmul_precision("high") inside the function and never puts it back: a global flag changed for everything that runs afterwards (a later train_fp32 run multiplies in TF32 on an Ampere+ GPU).
# hint: set_float32_matmul_precision|tf32|allow_tf32|global (state|flag|setting)|(restore|put back|reset|leave).*(precision|flag|global)|matmul precision
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    torch.set_float32_matmul_precision("high")  # the fp32 ops that remain get TF32 too
    losses = []
    for X, y in batches:
        opt.zero_grad()
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        if scaler is None:
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
