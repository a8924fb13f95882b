# expect: pass functools.partial of a general weighted step, as_tensor weights, copies skipped when already on device
# hint:
import functools

import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def _weighted_step(net, X, y, opt, device, *, class_weights):
    device = torch.device(device)
    if X.device != device:
        X = X.to(device)
    if y.device != device:
        y = y.to(device)
    weight = torch.as_tensor(class_weights, dtype=torch.float32, device=device)
    loss = F.cross_entropy(net(X), y, weight=weight)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


train_step = functools.partial(_weighted_step, class_weights=CLASS_WEIGHTS)
answer = train_step
