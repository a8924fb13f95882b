# expect: fail times every step with torch.cuda.synchronize() before reading the clock, so on a GPU the CPU waits for the GPU at each step (work and waits the prompt does not ask for); on a CPU it does nothing, so only a GPU run shows it.
# hint: synchroni[sz]e|sync|wait(s|ing)?|stall|timing|perf_counter|(host|cpu) (waits|read)
# open: the synchronize runs only when device_type is 'cuda', and the checker runs on try_gpu(), the CPU on a machine without a GPU; even on a GPU the checker counts host reads of tensors (.item(), float(), .cpu()), not torch.cuda.synchronize() calls
import time

import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    losses, step_times = [], []
    for X, y in batches:
        start = time.perf_counter()
        opt.zero_grad()
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        if scaler is None:
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            scaler.step(opt)
            scaler.update()
        if device_type == "cuda":
            torch.cuda.synchronize()  # honest step times
        step_times.append(time.perf_counter() - start)
        losses.append(loss.detach())
    train_amp.step_times = step_times
    return torch.stack(losses)


answer = train_amp
