# expect: fail zero_grad after the step, not before backward: the first step adds the gradients the caller left on net
# hint: zero_grad|stale|left.?over|existing grad|accumul|previous grad|before backward
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
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
        opt.zero_grad()  # tidy up: free the gradients once the step has used them
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
