# expect: pass
# hint:
import warnings

import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """train_fp32 under autocast; a GradScaler for float16, none (scaler=None) for bfloat16."""
    before_anomaly = torch.is_anomaly_enabled()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # only inside this block
        torch.autograd.set_detect_anomaly(False)
        try:
            autocast = torch.autocast(device_type, dtype=dtype)
            losses = []
            for X, y in batches:
                autocast.__enter__()
                try:
                    loss = F.cross_entropy(net(X), y)
                finally:
                    autocast.__exit__(None, None, None)
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
            return torch.stack(losses)
        finally:
            torch.autograd.set_detect_anomaly(before_anomaly)


answer = train_amp
