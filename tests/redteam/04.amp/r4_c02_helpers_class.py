# expect: pass a small class with a step method, backward split into helpers, losses preallocated
# hint: 
import torch
import torch.nn.functional as F


class _Trainer:
    def __init__(self, net, opt, device_type, dtype, scaler, max_norm):
        self.net, self.opt, self.dt, self.dtype, self.scaler, self.max_norm = net, opt, device_type, dtype, scaler, max_norm

    def forward(self, X, y):
        with torch.amp.autocast(self.dt, dtype=self.dtype):
            return F.cross_entropy(self.net(X), y)

    def clip(self):
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.max_norm)

    def step(self, X, y):
        loss = self.forward(X, y)
        self.opt.zero_grad()
        if self.scaler is None:
            loss.backward()
            self.clip()
            self.opt.step()
        else:
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.opt)
            self.clip()
            self.scaler.step(self.opt)
            self.scaler.update()
        return loss.detach()


def answer(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    t = _Trainer(net, opt, device_type, dtype, scaler, max_norm)
    batches = list(batches)
    out = None
    for i, (X, y) in enumerate(batches):
        loss = t.step(X, y)
        if out is None:
            out = torch.empty(len(batches), dtype=loss.dtype, device=loss.device)
        out[i] = loss
    return out
