# expect: fail stores loss.detach().nan_to_num() instead of the loss itself, so an inf or NaN loss (float16 overflow, a diverging run) comes back as a huge finite number or 0 and the caller cannot see it; the same as train_fp32 only while every loss is finite.
# hint: nan_to_num|nan|inf|non-?finite|overflow|(hide|mask|replace|clean).*loss|loss.*(as (it is|computed)|unchanged)
# open: only an inf or NaN loss shows it; the prompt's check compares the losses with train_fp32's, so the checker's problem keeps every loss finite (a float16 overflow skips a step that float32 takes, and their losses part)
import torch
import torch.nn.functional as F
from torch import nn


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none for bfloat16."""
    losses = []
    for X, y in batches:
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
            scaler.step(opt)  # skips the step on inf, so the curve should stay finite too
            scaler.update()
        losses.append(loss.detach().nan_to_num())
    return torch.stack(losses)


answer = train_amp
