# expect: pass caches the class weights per (device) key so each device gets its own copy, prints where it ran once per device
# hint: 
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss
_weights = {}


def _class_weights(device):
    key = str(torch.device(device))
    if key not in _weights:
        _weights[key] = torch.tensor(CLASS_WEIGHTS, device=device)
        print(f"class weights made on {key}")
    return _weights[key]


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    out = net(X)
    loss = F.cross_entropy(out, y, weight=_class_weights(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
