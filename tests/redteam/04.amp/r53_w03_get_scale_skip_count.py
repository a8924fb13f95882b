# expect: fail reads scaler.get_scale() every step to count skipped steps: a host read (sync) per step
# hint: host|sync|read|get_scale|item
import torch
import torch.nn.functional as F

skipped_steps = 0  # for the curious: how many fp16 steps the scaler skipped


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast, counting the steps GradScaler skips."""
    global skipped_steps
    losses = []
    for X, y in batches:
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            before = scaler.get_scale()
            scaler.step(opt)
            scaler.update()
            if scaler.get_scale() < before:  # the scale halves when a step is skipped
                skipped_steps += 1
        else:
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
