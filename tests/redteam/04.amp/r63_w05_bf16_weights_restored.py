# expect: fail casts the model to bfloat16 for the bf16 run and back to float32 only before returning
# hint: half|float32.*(param|weight|master)|(param|weight|master).*(float32|fp32|dtype|bf16|bfloat16|16.?bit)|cast.*(model|net)|\.to\(
# Wrong: the prompt says the parameters stay float32 (no net.half(): autocast casts per
# operation). For bfloat16 this loop trains bf16 weights (lost updates) and casts them back
# to float32 at the end, so the parameters look right once it returns.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    pure_bf16 = scaler is None  # bf16 has fp32's range: no need for fp32 master weights
    if pure_bf16:
        net.to(torch.bfloat16)
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
        if pure_bf16:
            net.float()  # hand the caller its float32 model back
    return torch.stack(losses)
