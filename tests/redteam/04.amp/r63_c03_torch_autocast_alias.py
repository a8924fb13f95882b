# expect: pass
# hint:
# Right: torch.autocast (the same class as torch.amp.autocast) with keyword arguments,
# net.zero_grad() instead of opt.zero_grad() (same parameters), and the clip applied to the
# optimizer's parameters, which are the net's here.
import torch
from torch.nn.functional import cross_entropy
from torch.nn.utils import clip_grad_norm_


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    params = [p for group in opt.param_groups for p in group["params"]]
    scaled = scaler is not None
    out = []
    for X, y in batches:
        net.zero_grad(set_to_none=True)
        with torch.autocast(device_type=device_type, dtype=dtype, enabled=True):
            logits = net(X)
            loss = cross_entropy(logits, y)
        (scaler.scale(loss) if scaled else loss).backward()
        if scaled:
            scaler.unscale_(opt)
        clip_grad_norm_(params, max_norm)
        if scaled:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        out.append(loss.detach())
    return torch.stack(out)
