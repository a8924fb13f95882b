# expect: fail reads scaler.get_scale() every float16 step to notice skipped steps; get_scale() copies the scale to the host (.item()), a CPU-GPU sync per step that the prompt forbids.
# hint: get_scale|host read|\.item\(\)|sync(hroni[sz]e)?|(cpu|host).*(wait|read)|skipped step
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    losses = []
    skipped = 0
    for X, y in batches:
        opt.zero_grad()
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        if scaler is None:
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            before = scaler.get_scale()
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
            if scaler.get_scale() < before:  # the scale fell: this step was skipped
                skipped += 1
        losses.append(loss.detach())
    train_amp.skipped_steps = skipped
    return torch.stack(losses)


answer = train_amp
