# expect: fail autocast without dtype=: runs the device's default dtype, not the one asked for
# hint: dtype=|dtype argument|default dtype|requested dtype|dtype.{0,30}(ignor|default|asked|pass|given)|(ignor|default|asked|pass).{0,30}dtype|wrong dtype|float16.{0,40}bfloat16|bfloat16.{0,40}float16
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type):
            loss = F.cross_entropy(net(X), y)
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
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
