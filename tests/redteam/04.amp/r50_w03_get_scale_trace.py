# expect: fail host read in the loop, disguised: scaler.get_scale() every step (it calls .item() on the scale)
# hint: host|sync|\.item|read|get_scale
import torch
import torch.nn.functional as F

SCALE_TRACE = []  # "for debugging": the scale after each fp16 step


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Records the loss scale after every fp16 step; get_scale() is a host read of the scale tensor."""
    losses = []
    SCALE_TRACE.clear()
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
            SCALE_TRACE.append(scaler.get_scale())  # .item() on the scale: the CPU waits
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
