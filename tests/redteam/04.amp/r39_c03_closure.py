# expect: pass bfloat16 via an optimizer closure opt.step(closure) (closure: zero_grad, autocast forward+loss, backward, clip, returns loss); float16 the scaler way; torch.autocast spelling; zero_grad(set_to_none=False)
# hint: 
import torch
import torch.nn.functional as F
def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        if scaler is None:
            def closure():
                opt.zero_grad(set_to_none=False)
                with torch.autocast(device_type=device_type, dtype=dtype):
                    loss = F.cross_entropy(net(X), y)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                return loss
            loss = opt.step(closure)
        else:
            opt.zero_grad(set_to_none=False)
            with torch.autocast(device_type=device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
    return torch.stack(losses)
