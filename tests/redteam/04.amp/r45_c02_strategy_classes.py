# expect: pass two small strategy classes (scaled / plain) chosen once
# hint: 
import torch
import torch.nn.functional as F


class _Plain:
    def __init__(self, opt):
        self.opt = opt

    def backward(self, loss):
        loss.backward()

    def unscale(self):
        pass

    def step(self):
        self.opt.step()


class _Scaled(_Plain):
    def __init__(self, opt, scaler):
        super().__init__(opt)
        self.scaler = scaler

    def backward(self, loss):
        self.scaler.scale(loss).backward()

    def unscale(self):
        self.scaler.unscale_(self.opt)

    def step(self):
        self.scaler.step(self.opt)
        self.scaler.update()


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    strategy = _Plain(opt) if scaler is None else _Scaled(opt, scaler)
    losses = []
    for X, y in batches:
        opt.zero_grad()
        with torch.amp.autocast(device_type, dtype=dtype):
            loss = F.cross_entropy(net(X), y)
        strategy.backward(loss)
        strategy.unscale()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=max_norm)
        strategy.step()
        losses.append(loss.detach())
    return torch.stack(losses)


answer = train_amp
