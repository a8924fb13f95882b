# expect: fail autocast is hard-coded to "cuda" instead of device_type, so on any other device the forward runs in float32
# hint: device.?type|cuda|cpu|autocast.{0,60}(off|disabled|not (on|active|enabled|used|run)|no effect|nothing)|float32|fp32
# Wrong: the prompt says autocast(device_type, ...). On a CUDA run it is identical; on the CPU
# (try_gpu() without a GPU) autocast("cuda") does not touch CPU ops: float32 losses, no mixed precision.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast("cuda", dtype=dtype):  # AMP is a GPU thing
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
