# expect: pass p.grad = None loop instead of opt.zero_grad(); torch.autograd.backward(scaler.scale(loss)); nn.CrossEntropyLoss module; torch.autocast with positional dtype
# hint: 
import torch
from torch import nn
def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    criterion = nn.CrossEntropyLoss()
    losses = []
    for X, y in batches:
        for p in net.parameters():
            p.grad = None
        with torch.autocast(device_type, dtype):
            loss = criterion(net(X), y)
        if scaler is not None:
            torch.autograd.backward(scaler.scale(loss))
            scaler.unscale_(opt)
        else:
            torch.autograd.backward(loss)
        nn.utils.clip_grad_norm_(net.parameters(), max_norm, foreach=True)
        if scaler is not None:
            scaler.step(opt)
            scaler.update()
        else:
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)
