# expect: fail float16 ignores the caller's GradScaler and builds a fresh one each call, so the given scaler's scale and growth state never move
# hint: scaler.{0,60}(state|update|scale|unchanged|new|fresh|own|passed|given|argument|caller)|(passed|given|caller|argument).{0,40}scaler|GradScaler
# Wrong: the prompt's float16 case uses the `scaler` passed in (scaler.scale, unscale_, step,
# update). A new scaler per call starts again at 65536 with its growth counter at 0 on every call
# and leaves the caller's untouched; one call with no overflow gives the same losses.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    use_scaler = scaler is not None
    if use_scaler:  # a clean scaler for this run, on the right device type
        scaler = torch.amp.GradScaler(device_type)
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if use_scaler:
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
