# expect: pass class weights cached per device in a dict (state keyed on the device, so never stale), moved with x.to(other_tensor)
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss
_weights_on = {}


def _class_weights(like):
    key = (like.device, like.dtype)
    if key not in _weights_on:
        _weights_on[key] = torch.tensor(CLASS_WEIGHTS).to(like)  # like's device and float dtype
    return _weights_on[key]


def train_step(net, X, y, opt, device):
    X = X.to(device)
    y = y.to(device=device)
    loss = F.cross_entropy(net(X), y, weight=_class_weights(X))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
