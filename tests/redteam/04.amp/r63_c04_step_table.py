# expect: pass
# hint:
# Right: a dispatch of two small step functions chosen once, before the loop; batches are
# read through iter() (a generator works too) and the losses are concatenated on the
# device with torch.cat of 1-element views, equal to torch.stack.
import torch
import torch.nn.functional as F


def _fp16_step(net, opt, scaler, loss, max_norm):
    scaler.scale(loss).backward()  # float16 gradients would underflow unscaled
    scaler.unscale_(opt)  # true gradients before the clip
    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
    scaler.step(opt)  # skipped if a gradient is inf/NaN
    scaler.update()


def _bf16_step(net, opt, scaler, loss, max_norm):
    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
    opt.step()


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    step = _bf16_step if scaler is None else _fp16_step
    kept = []
    batch_iter = iter(batches)
    while True:
        try:
            X, y = next(batch_iter)
        except StopIteration:
            break
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        step(net, opt, scaler, loss, max_norm)
        kept.append(loss.detach().reshape(1))
    return torch.cat(kept)
