# expect: fail autocast on the hard-coded device type "cuda" instead of the device_type argument
# hint: device.?type|hard.?coded|cuda.*(instead|not|only)|autocast.*(not|never|off|disabled|inactive|no effect)|(no|never|without).*autocast|float32 forward
# Wrong: the prompt says torch.amp.autocast(device_type, dtype=dtype); on any device but
# CUDA this autocast does nothing and the forward runs in float32 (right on a GPU only).
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast("cuda", dtype=dtype):
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
