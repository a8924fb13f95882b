# expect: fail makes the class-weight tensor once, on the first call's device, and reuses it on later calls whatever their device
# hint: cache|reus|first call|weight|device|global
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]
_class_weights = None  # made once, not every step


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    global _class_weights
    if _class_weights is None:
        _class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=_class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
