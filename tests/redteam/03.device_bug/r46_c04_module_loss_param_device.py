# expect: pass nn.CrossEntropyLoss module moved with .to, device read from the model's parameters, legacy torch.Tensor moved
# hint:
import torch
from torch import nn

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: everything where the model's parameters are."""
    where = next(net.parameters()).device  # the model is already on device
    criterion = nn.CrossEntropyLoss(weight=torch.Tensor(CLASS_WEIGHTS)).to(where)  # weight is a buffer
    X, y = (t.to(where) for t in (X, y))
    loss = criterion(net(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
