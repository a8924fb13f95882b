# expect: fail runs backward inside the autocast block (only the forward pass and loss belong there)
# hint: backward.*(inside|in|under|within).*autocast|autocast.*(only|forward)|(inside|within|under).*(autocast|with).*backward|outside.*(with|autocast)
# Wrong: the prompt says backward, clipping and the step run after the `with` block;
# here backward (scaled or not) is indented into it. The values barely change.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        opt.zero_grad()
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
            if scaler is not None:
                scaler.scale(loss).backward()
            else:
                loss.backward()
        if scaler is not None:
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
