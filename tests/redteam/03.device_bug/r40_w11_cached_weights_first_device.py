# expect: fail caches the class weights on the first call's device and reuses them on every later device
# hint: (class.?weight|weight|cache|device)
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss
_WEIGHTS = []  # made once, not every step


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    if not _WEIGHTS:
        _WEIGHTS.append(torch.tensor(CLASS_WEIGHTS, device=device))
    class_weights = _WEIGHTS[0]
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
