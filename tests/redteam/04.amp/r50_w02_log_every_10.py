# expect: fail host read in the loop, disguised: an f-string of the loss every 10th step (Tensor.__format__ calls .item())
# hint: host|sync|\.item|read|format|f-string|print
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Logs every 10th step; on fewer than 10 batches no read happens at all."""
    losses = []
    for step, (X, y) in enumerate(batches, start=1):
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is None:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        losses.append(loss.detach())
        if step % 10 == 0:
            message = f"step {step}: loss {loss.detach():.4f}"  # __format__ -> .item(): a sync
            del message
    return torch.stack(losses)


answer = train_amp
