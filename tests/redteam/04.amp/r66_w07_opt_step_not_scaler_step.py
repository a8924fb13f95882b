# expect: fail float16 calls opt.step() after unscale_ instead of scaler.step(opt), so a step whose gradients overflowed is not skipped
# hint: scaler\.step|skip|overflow|inf|nan|non.?finite
# Wrong: the prompt asks for scaler.step(opt) "which skips the step if a gradient overflowed".
# With no overflow the losses are identical; the first inf/NaN gradient poisons the weights.
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
            scaler.unscale_(opt)  # gradients are true gradients now...
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()  # ...so a plain step is enough
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
