# expect: pass small nested helpers (forward / backward / apply), torch.autocast alias, list comprehension over the steps
# hint:
# name: train_amp
import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    def forward(X, y):
        with torch.autocast(device_type=device_type, dtype=dtype):
            return F.cross_entropy(net(X), y)

    def backward(loss):
        if scaler is None:
            loss.backward()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(opt)  # true gradients before clipping

    def apply():
        if scaler is None:
            opt.step()
        else:
            scaler.step(opt)
            scaler.update()

    def step(X, y):
        opt.zero_grad()
        loss = forward(X, y)
        backward(loss)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        apply()
        return loss.detach()

    return torch.stack([step(X, y) for X, y in batches])
