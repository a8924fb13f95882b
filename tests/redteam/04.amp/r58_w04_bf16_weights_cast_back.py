# expect: fail for bfloat16 casts the model's parameters to bfloat16 for the loop (no float32 master weights), and casts them back to float32 only at the end
# hint: master|float32|param|weight|half|\.to\(|bfloat16 (param|weight)|cast
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    if scaler is None:
        net.to(torch.bfloat16)  # bf16 has fp32's range: train the weights in it directly
    losses = []
    try:
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype):
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
            losses.append(loss.detach().float())
    finally:
        net.float()  # hand the caller float32 parameters again
    return torch.stack(losses)


answer = train_amp
