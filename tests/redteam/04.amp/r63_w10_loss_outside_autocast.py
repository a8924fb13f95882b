# expect: fail computes the loss after the autocast block (only net(X) runs under autocast)
# hint: loss.*(outside|after|autocast|float16|half|16.?bit)|(outside|after).*(autocast|with).*loss|cross.?entropy.*(outside|autocast|16)
# Wrong: the prompt says the forward pass AND the loss run under autocast, which keeps
# cross_entropy in float32; here it runs outside, on the 16-bit logits, in 16 bits.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            logits = net(X)
        loss = F.cross_entropy(logits, y)
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
    return torch.stack(losses)
