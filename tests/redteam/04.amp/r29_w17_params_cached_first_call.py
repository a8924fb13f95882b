# expect: fail the trainer object keeps the parameter list of the first net it sees and clips that list on every later call, so a second call with another net clips the first net's (stale) gradients and never its own. Shows only from the second call on a new model.
# hint: (first|earlier|previous|stale|cached|kept|stored) (call|net|model|parameters)|between calls|state|cache|second call|(another|new|different) (net|model)
import torch
import torch.nn.functional as F
from torch import nn


class AmpLoop:
    def __init__(self):
        self.params = None

    def __call__(self, net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        if self.params is None:  # build the list once, not at every step
            self.params = [p for p in net.parameters() if p.requires_grad]
        losses = []
        for X, y in batches:
            opt.zero_grad(set_to_none=True)
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            if scaler is None:
                loss.backward()
                nn.utils.clip_grad_norm_(self.params, max_norm)
                opt.step()
            else:
                scaler.scale(loss).backward()
                scaler.unscale_(opt)
                nn.utils.clip_grad_norm_(self.params, max_norm)
                scaler.step(opt)
                scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)


answer = AmpLoop()
