# expect: fail losses are appended without .detach(): every step's autograd graph stays alive and the returned tensor has a grad_fn
# hint: detach|graph|grad_fn|requires.?grad|autograd|memory|retain|keep.{0,20}alive
# Wrong: the prompt says "loss.detach() into a list". The values are the same, but each stored
# loss keeps its step's graph (saved 16-bit activations and weight casts) until the caller drops the result.
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
