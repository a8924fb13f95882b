# expect: fail autocast without dtype= (the device's default 16-bit dtype, not the one asked for)
# hint: dtype|float16|bfloat16|bf16|fp16|default
# Wrong: the prompt says torch.amp.autocast(device_type, dtype=dtype). Without dtype the
# CPU autocasts to bfloat16 and CUDA to float16, whatever dtype was asked: right only when
# the asked dtype happens to be the device's default.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type):
            loss = F.cross_entropy(net(X), y)
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
