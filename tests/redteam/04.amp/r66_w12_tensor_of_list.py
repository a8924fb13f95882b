# expect: fail the losses are gathered with torch.tensor(list, device=...) instead of torch.stack: one host read per loss, then copied back to the device
# hint: host|sync|read|item|wait|torch\.stack|stack|cpu|copy|transfer
# Wrong: the prompt says torch.stack at the end and no host reads. torch.tensor() of a list of
# device tensors reads each to the CPU (a sync per step's loss) and copies back; the result
# looks right: on the device, float32, same values.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    device = None
    for X, y in batches:
        device = X.device
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
        losses.append(loss.detach())
    return torch.tensor(losses, dtype=torch.float32, device=device)
