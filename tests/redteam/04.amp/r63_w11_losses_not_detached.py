# expect: fail keeps the losses without detach(): every step's graph stays alive
# hint: detach|graph|requires.?grad|grad_fn|autograd
# Wrong: the prompt says loss.detach() into the list. Appending the loss itself keeps each
# step's autograd graph (and its saved 16-bit activations) alive until the caller drops
# the result, and the returned tensor requires grad. The values are right.
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
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss)
    return torch.stack(losses)
