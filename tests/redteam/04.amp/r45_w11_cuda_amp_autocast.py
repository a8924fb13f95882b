# expect: fail uses the deprecated torch.cuda.amp.autocast, ignoring device_type (no autocast on the CPU)
# hint: device.?type|cuda\.amp|deprecat|autocast.*(cpu|device)|(cpu|device).*autocast
import warnings

import torch
import torch.nn.functional as F

warnings.filterwarnings("ignore", category=FutureWarning)


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.cuda.amp.autocast(dtype=dtype):
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
