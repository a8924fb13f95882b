# expect: pass one explicit if/else per step, zero_grad(set_to_none=False), foreach clipping, losses cloned and stacked
# hint: 
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    params = list(net.parameters())  # a list, rebuilt per call, so it can be iterated every step
    kept = []
    for X, y in batches:
        opt.zero_grad(set_to_none=False)
        with torch.amp.autocast(device_type, dtype=dtype, enabled=True):
            logits = net(X)
            loss = F.cross_entropy(logits, y, reduction="mean")
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(params, max_norm, foreach=True)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, max_norm, foreach=True)
            opt.step()
        kept.append(loss.detach().clone())
    return torch.stack(kept, dim=0)


answer = train_amp
