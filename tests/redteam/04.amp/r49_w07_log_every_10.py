# expect: fail prints the loss every 10th step: a host read from step 11 on, unseen with 10 batches or fewer
# hint: host|sync|read|item|print|float|wait
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    losses = []
    for step, (X, y) in enumerate(batches):
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
        if step and step % 10 == 0:  # a progress line now and then
            print(f"step {step}: loss {loss:.4f}")
    return torch.stack(losses)


answer = train_amp
