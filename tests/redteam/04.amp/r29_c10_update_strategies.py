# expect: pass two update strategies (scaled and plain) chosen once per call, nn.CrossEntropyLoss module, net.zero_grad
# hint: 
import torch
from torch import nn


class ScaledUpdate:
    """float16: scale, backward, unscale_, clip the true gradients, step, update."""

    def __init__(self, scaler):
        self.scaler = scaler

    def __call__(self, loss, net, opt, max_norm):
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(opt)
        nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        self.scaler.step(opt)
        self.scaler.update()


class PlainUpdate:
    """bfloat16: float32's range, the fp32 update as it is."""

    def __call__(self, loss, net, opt, max_norm):
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    update = PlainUpdate() if scaler is None else ScaledUpdate(scaler)
    criterion = nn.CrossEntropyLoss()
    history = []
    for X, y in batches:
        net.zero_grad(set_to_none=True)
        with torch.amp.autocast(device_type=device_type, dtype=dtype):
            loss = criterion(net(X), y)
        update(loss, net, opt, max_norm)
        history.append(loss.detach())
    return torch.stack(history)


answer = train_amp
