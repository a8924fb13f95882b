# expect: fail Caches the class-weight tensor in a module global on the first call, so a later call with the model on another device (meta first, then the real device) gets weights on the first call's device.
# hint: device|weight|cache|global|same device|meta
# name: train_step
import torch
import torch.nn.functional as F
from torch import nn  # noqa: F401

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


_weights = None


def train_step(net, X, y, opt, device):
    global _weights
    if _weights is None:  # build the weights once, not every step
        _weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
