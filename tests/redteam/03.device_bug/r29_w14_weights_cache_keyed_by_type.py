# expect: fail Caches the class weights per device.type ("cuda", "cpu", "meta"), not per device: after a step on cuda:0, a step on cuda:1 gets the weights cached on cuda:0 and mixes devices; one GPU hides it.
# hint: (cache|device\.type|cuda:1|cuda:0|index|multi|second gpu|another gpu|other gpu|wrong device|per device)
# open: needs two GPUs: the cache is keyed by device.type, and with one device of each type every step gets weights on its own device
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]
_WEIGHTS = {}  # made once per kind of device, not once per step


def train_step(net, X, y, opt, device):
    device = torch.device(device)
    if device.type not in _WEIGHTS:
        _WEIGHTS[device.type] = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=_WEIGHTS[device.type])
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
