# expect: fail class weights cached from the first call: a later call on another device uses them on the wrong device
# hint: cach|first call|second call|stale|global|class.?weight|weight|another device|reus
# Wrong: the weights tensor is made once, on the device of the first call, and reused; a
# step on another device (meta, then the GPU) mixes devices.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]
_class_weights = None


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    global _class_weights
    if _class_weights is None:  # make it once, not every step
        _class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=_class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
