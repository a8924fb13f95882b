# expect: fail no unscale_: clips the scaled gradients at max_norm * scaler.get_scale(), a host read every step
# hint: unscale|get_scale|host|sync|read|item
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            # same clip, no extra pass over the gradients: scale the threshold instead
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm * scaler.get_scale())
            scaler.step(opt)  # unscales here, once
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
