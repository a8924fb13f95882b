# expect: pass a class with two step methods picked once, an iterator loop, losses kept with no_grad clone
# hint: 
import torch
import torch.nn.functional as F
from torch.amp import GradScaler, autocast  # noqa: F401 (GradScaler: the type named in the prompt)


class _Trainer:
    def __init__(self, net, opt, device_type, dtype, scaler, max_norm):
        self.net, self.opt = net, opt
        self.device_type, self.dtype = device_type, dtype
        self.scaler, self.max_norm = scaler, max_norm
        self.backward_and_step = self._fp16 if scaler is not None else self._bf16

    def forward(self, X, y):
        with autocast(self.device_type, dtype=self.dtype):
            return F.cross_entropy(self.net(X), y)

    def _clip(self):
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.max_norm)

    def _fp16(self, loss):
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.opt)
        self._clip()
        self.scaler.step(self.opt)
        self.scaler.update()

    def _bf16(self, loss):
        loss.backward()
        self._clip()
        self.opt.step()

    def run(self, batches):
        losses = []
        it = iter(batches)
        while True:
            try:
                X, y = next(it)
            except StopIteration:
                break
            self.opt.zero_grad()
            loss = self.forward(X, y)
            self.backward_and_step(loss)
            with torch.no_grad():
                losses.append(loss.clone())
        return torch.stack(losses)


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    return _Trainer(net, opt, device_type, dtype, scaler, max_norm).run(batches)


answer = train_amp
