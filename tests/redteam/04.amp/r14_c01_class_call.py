# expect: pass a class with __call__, the branch chosen once per step by a method
# hint: 
import torch
import torch.nn.functional as F
from torch import nn


class AmpTrainer:
    """The train_fp32 loop under autocast, as a callable object."""

    def _backward_and_step(self, net, opt, scaler, loss, max_norm):
        if scaler is None:  # bfloat16: float32's range, nothing to scale
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_norm)
            opt.step()
            return
        scaler.scale(loss).backward()
        scaler.unscale_(opt)  # true gradients before clipping
        nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        scaler.step(opt)
        scaler.update()

    def __call__(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            opt.zero_grad(set_to_none=True)
            with torch.autocast(device_type=device_type, dtype=dtype):
                logits = net(X)
                loss = F.cross_entropy(logits, y)
            self._backward_and_step(net, opt, scaler, loss, max_norm)
            losses.append(loss.detach())
        return torch.stack(losses)


answer = AmpTrainer()
