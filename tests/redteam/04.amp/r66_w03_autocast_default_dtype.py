# expect: fail autocast without dtype= runs the device's default dtype (fp16 on CUDA, bf16 on CPU), not the dtype argument
# hint: dtype|float16|bfloat16|fp16|bf16|default
# Wrong: the prompt asks for autocast(device_type, dtype=dtype). On CUDA the bf16 run becomes
# fp16 with no GradScaler; on the CPU the fp16 run becomes bf16. Each case passes on one device only.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
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
