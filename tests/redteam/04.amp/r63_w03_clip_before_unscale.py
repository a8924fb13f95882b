# expect: fail clips the float16 gradients before scaler.unscale_ (clips the scaled gradients)
# hint: unscale
# Wrong: the prompt asks for scaler.unscale_(opt) BEFORE clipping. Clipping first clips
# gradients still multiplied by the scale; scaler.step then unscales them, so every step
# is about 1/65536 of the right size. bfloat16 is right.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)  # unscales here, after the clipping
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
