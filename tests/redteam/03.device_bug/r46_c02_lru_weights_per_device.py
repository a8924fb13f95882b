# expect: pass class weights cached per device with functools.lru_cache (keyed by device, so never stale), log_softmax + nll_loss
# hint:
import functools

import torch
import torch.nn.functional as F

CLASS_WEIGHTS = (1.0, 2.0, 1.0)


@functools.lru_cache(maxsize=8)
def _class_weights(device):
    return torch.tensor(CLASS_WEIGHTS, device=device)


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    device = torch.device(device)
    X, y = X.to(device), y.to(device)
    loss = F.nll_loss(F.log_softmax(net(X), dim=1), y, weight=_class_weights(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
