# expect: pass autocast as a decorator on the forward, identity scaling for bf16
# hint: 
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    @torch.amp.autocast(device_type, dtype=dtype)
    def forward_loss(X, y):
        return F.cross_entropy(net(X), y)

    scale = (lambda t: t) if scaler is None else scaler.scale
    out = []
    for X, y in batches:
        loss = forward_loss(X, y)
        opt.zero_grad(set_to_none=False)
        scale(loss).backward()
        if scaler is not None:
            scaler.unscale_(opt)  # before clipping: clip the true gradients
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm, error_if_nonfinite=False)
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        out.append(loss.detach().unsqueeze(0))
    return torch.cat(out)


answer = train_amp
