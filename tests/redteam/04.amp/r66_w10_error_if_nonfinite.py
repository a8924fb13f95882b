# expect: fail clip_grad_norm_(..., error_if_nonfinite=True) reads the norm on the host every step and raises on an fp16 overflow the scaler should skip
# hint: host|sync|read|item|wait|nonfinite|error_if|non.?finite|overflow|skip|inf|nan
# Wrong: error_if_nonfinite makes clip_grad_norm_ test the total norm in Python (a host read,
# the CPU waits for the GPU, each step), which the prompt forbids in the loop; and an overflowed
# fp16 step raises instead of being skipped by scaler.step.
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
            scaler.unscale_(opt)
        else:
            loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=True)
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
