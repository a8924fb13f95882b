# expect: fail copies each step's loss to the CPU (a host read per step), then back to the device
# hint: host|\.?cpu\(|sync|copy|device.?to.?host|d2h|on the device
# Wrong: the prompt says keep the losses on the device, no host read in the loop; .cpu()
# on each loss makes the CPU wait for the GPU every step. The values and the returned
# device are right, since the stack goes back to the loss's device at the end.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    where = None
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
        where = loss.device
        losses.append(loss.detach().cpu())  # "save GPU memory"
    return torch.stack(losses).to(where)
