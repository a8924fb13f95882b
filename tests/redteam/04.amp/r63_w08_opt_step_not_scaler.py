# expect: fail calls opt.step() instead of scaler.step(opt) for float16 (never skips an overflowed step)
# hint: scaler\.step|skip|overflow|inf|nan|non.?finite
# Wrong: the prompt asks for scaler.step(opt), which skips the step if a gradient overflowed.
# After unscale_ the gradients are right, so without an overflow the losses match; with
# one, opt.step() writes inf/NaN into the weights.
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
            scaler.unscale_(opt)  # the gradients are true now, so a plain step will do
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
