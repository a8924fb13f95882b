# expect: pass
# hint:
# Right: functools.partial of a general step; cross_entropy written as log_softmax + nll_loss (the
# same function); weights by torch.as_tensor(..., device=device); the batch moved with non_blocking.
import functools

import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def weighted_step(net, X, y, opt, device, *, class_weights):
    X = X.to(device, non_blocking=True)  # host -> device: ordered before the kernels that read it
    y = y.to(device, non_blocking=True)
    weight = torch.as_tensor(class_weights, device=device)
    log_probs = F.log_softmax(net(X), dim=1)
    loss = F.nll_loss(log_probs, y, weight=weight)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss.detach()


answer = functools.partial(weighted_step, class_weights=CLASS_WEIGHTS)
