# expect: fail bf16 branch runs backward, clipping and the step inside the autocast block (fp16 branch right)
# hint: backward|inside|outside|after the .?with|only the forward|autocast
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        opt.zero_grad()
        if scaler is not None:
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:  # no scaler to call outside, so the whole bf16 step sits in one block
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
