# expect: fail guards each step with `if not torch.isfinite(loss)`, a hidden host read per step
# hint: host|sync|isfinite|bool\(|\bbool\b|\.?item|read|wait
# Wrong: the prompt forbids reading the loss on the host in the loop; `if tensor:` calls
# bool() on a device tensor, which syncs like .item(). No step is ever skipped on a normal
# run, so the values are right.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        losses.append(loss.detach())
        if not torch.isfinite(loss):  # a diverged batch: don't backpropagate it
            continue
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
    return torch.stack(losses)
