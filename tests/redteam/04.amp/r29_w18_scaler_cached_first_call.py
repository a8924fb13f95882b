# expect: fail remembers the first GradScaler it is given (self.scaler = self.scaler or scaler) and uses it on every later call: a bfloat16 call after a float16 one still scales, and a later float16 call steps and updates the old scaler instead of the one passed. Shows only from the second call.
# hint: (first|earlier|previous|stale|cached|kept|stored|old) (call|scaler)|between calls|state|scaler (passed|given|argument)|second call|scaler is None
import torch
import torch.nn.functional as F
from torch import nn


class AmpLoop:
    def __init__(self):
        self.scaler = None

    def __call__(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        self.scaler = self.scaler or scaler  # keep the scale it has learnt across calls
        losses = []
        for X, y in batches:
            opt.zero_grad()
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            if self.scaler is None:
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                opt.step()
            else:
                self.scaler.scale(loss).backward()
                self.scaler.unscale_(opt)
                nn.utils.clip_grad_norm_(net.parameters(), max_norm)
                self.scaler.step(opt)
                self.scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)


answer = AmpLoop()
