# expect: pass iterator with while loop, extra device-side finiteness tally (no host read)
# hint: 
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    it = iter(batches)
    losses = []
    nonfinite = None  # kept on the device, never read here
    while True:
        try:
            X, y = next(it)
        except StopIteration:
            break
        with torch.amp.autocast(device_type=device_type, dtype=dtype, enabled=True):
            logits = net(X)
            loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
        norm = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        flag = (~torch.isfinite(norm)).to(torch.int32)
        nonfinite = flag if nonfinite is None else nonfinite + flag
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
