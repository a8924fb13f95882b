# expect: fail the class weights are made once, on the first call's device, and reused on every later call whatever its device
# hint: weight|cach|first call|second call|stale|previous call|earlier call
# Wrong: the cache ignores `device`. After a first call on `meta`, a step on try_gpu() gets
# meta class weights (and the other way round): not "every tensor on device" from the second call on.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

_class_weights = None  # made once, "so each step does not build it again"


def answer(net, X, y, opt, device):
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
