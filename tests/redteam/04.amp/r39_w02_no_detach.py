# expect: fail appends loss without detach (keeps every step's graph alive until the end), detaches the stack at the end
# hint: detach|graph|grad
# open: the losses kept with their graphs until torch.stack(...).detach() at the end: after backward a graph holds only its nodes, so the checker sees no cost to name; the prompt's loss.detach() is not watched
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
    return torch.stack(losses).detach()
