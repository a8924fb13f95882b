# expect: fail clips with the constant 1.0 instead of the max_norm argument
# hint: max.?norm|clip\w*.*(argument|constant|1\.0|default|threshold)|(argument|threshold).*clip
# Wrong: the prompt says the checker passes a max_norm other than the default, "so clip
# with the argument"; this loop always clips at 1.0 (copied from train_fp32's default).
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
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
