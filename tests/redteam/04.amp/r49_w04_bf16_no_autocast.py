# expect: fail bf16 read as "nothing to do": the bfloat16 run has no autocast at all (plain float32)
# hint: autocast|bfloat16|bf16
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        opt.zero_grad()
        if scaler is not None:  # float16: autocast and the scaler
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:  # bfloat16 "has float32's range, so no special handling"
            loss = F.cross_entropy(net(X), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
