# expect: pass torch.autograd.grad instead of .backward(), assigning p.grad (replaces zero_grad), clip over opt.param_groups' params
# hint: 
import torch
import torch.nn.functional as F
def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    params = [p for g in opt.param_groups for p in g["params"]]
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        target = scaler.scale(loss) if scaler is not None else loss
        grads = torch.autograd.grad(target, params)
        for p, g in zip(params, grads):
            p.grad = g
        if scaler is not None:
            scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(params, max_norm)
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
