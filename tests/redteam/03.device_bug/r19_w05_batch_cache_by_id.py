# expect: fail caches the moved batch under id(X), so a new batch that reuses a freed object's id (or an X changed in place) trains on the stale copy
# hint: cach|stale|id\(|reuse|previous|memo|old batch|earlier batch
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

_on_device = {}  # id of a CPU batch -> its copy on the device: copy each batch once


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    key = (id(X), id(y), str(device))
    if key not in _on_device:
        _on_device[key] = (X.to(device), y.to(device))
    X_dev, y_dev = _on_device[key]
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X_dev), y_dev, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
