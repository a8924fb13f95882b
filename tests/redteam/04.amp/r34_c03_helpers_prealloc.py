# expect: pass split into helper functions, zero_grad before the forward, losses written into a preallocated device tensor (float32)
# hint: 
import torch
import torch.nn.functional as F

def _forward(net, X, y, device_type, dtype):
    with torch.autocast(device_type, dtype=dtype):
        return F.cross_entropy(net(X), y)


def _backward_and_step(loss, net, opt, scaler, max_norm):
    if scaler is None:
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()
        return
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
    scaler.step(opt)
    scaler.update()


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    batches = list(batches)
    device = next(net.parameters()).device
    out = torch.empty(len(batches), device=device)
    for i, (X, y) in enumerate(batches):
        opt.zero_grad()
        loss = _forward(net, X, y, device_type, dtype)
        _backward_and_step(loss, net, opt, scaler, max_norm)
        out[i] = loss.detach()
    return out


answer = train_amp
