# expect: pass
# hint: 
import torch
import torch.nn.functional as F

def _params(opt):
    return [p for group in opt.param_groups for p in group["params"]]


def _fp16(net, opt, scaler, max_norm, loss):
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(_params(opt), max_norm)
    scaler.step(opt)
    scaler.update()


def _bf16(net, opt, scaler, max_norm, loss):
    loss.backward()
    torch.nn.utils.clip_grad_norm_(_params(opt), max_norm)
    opt.step()


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    backward_and_step = _bf16 if scaler is None else _fp16
    losses = []
    for X, y in batches:
        for p in net.parameters():
            p.grad = None
        with torch.amp.autocast(device_type=device_type, dtype=dtype):
            out = net(X)
            loss = F.cross_entropy(out, y)
        backward_and_step(net, opt, scaler, max_norm, loss)
        losses.append(loss.detach())
    return torch.stack(losses, dim=0)
