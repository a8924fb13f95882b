# expect: fail no scaler.unscale_(opt): clips the still-scaled gradients against max_norm * scaler.get_scale(), a host read every step
# hint: unscale|get_scale|scaled (grad|gradient)|host|sync|item
# Wrong: the prompt asks for unscale_ before clipping. The clip factor comes out the same
# (the norm scales with S), but get_scale() is a .item() on the scale: one host read per step.
import torch
import torch.nn.functional as F


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            # the gradients are S times too large: clip against S times the threshold
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm * scaler.get_scale())
            scaler.step(opt)  # unscales, then steps
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
