# expect: pass
# hint: 
from functools import lru_cache

import torch
from torch import nn

CLASS_WEIGHTS = (1.0, 2.0, 1.0)


@lru_cache(maxsize=None)
def _loss_fn(device):
    """One weighted loss per device (a torch.device is hashable); its weight is a buffer."""
    return nn.CrossEntropyLoss(weight=torch.tensor(CLASS_WEIGHTS, device=device))


def train_step(net, X, y, opt, device):
    device = torch.device(device)
    inputs = X.to(device)
    targets = y.to(device)
    loss = _loss_fn(device)(net(inputs), targets)
    for group in opt.param_groups:  # what opt.zero_grad() does, written out
        for p in group["params"]:
            p.grad = None
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
