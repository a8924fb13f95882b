# expect: pass one step per call of a nested closure, bound with functools.partial, chosen once per dtype; a list comprehension collects the losses
# hint:
import functools

import torch
import torch.nn.functional as F


def train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
    """Builds the step as a closure over net/opt/scaler, then maps it over the batches."""

    def forward(X, y):
        with torch.amp.autocast(device_type, dtype=dtype):
            return F.cross_entropy(net(X), y)

    def clip():
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)

    def step(X, y, *, grad_scaler):
        loss = forward(X, y)
        opt.zero_grad()
        if grad_scaler is None:
            loss.backward()
            clip()
            opt.step()
        else:
            grad_scaler.scale(loss).backward()
            grad_scaler.unscale_(opt)
            clip()
            grad_scaler.step(opt)
            grad_scaler.update()
        return loss.detach()

    one_step = functools.partial(step, grad_scaler=scaler)
    return torch.stack([one_step(X, y) for X, y in batches])


answer = train_amp
