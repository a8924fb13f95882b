# expect: pass
# hint:
# Right: functools.partial of a generic step with the class weights bound by keyword; the loss
# is nn.CrossEntropyLoss(weight=...), the same weighted mean as F.cross_entropy(weight=...).
import functools

import torch
from torch import nn


def _step(net, X, y, opt, device, *, class_weights):
    criterion = nn.CrossEntropyLoss(weight=torch.as_tensor(class_weights, device=device))
    X, y = X.to(device), y.to(device)
    loss = criterion(net(X), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss.detach()


answer = functools.partial(_step, class_weights=(1.0, 2.0, 1.0))
