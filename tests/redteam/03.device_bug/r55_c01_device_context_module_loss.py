# expect: pass weights made inside a `with torch.device(device):` block (restored on exit), nn.CrossEntropyLoss module
# hint:
import torch
from torch import nn

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    with torch.device(device):  # factory calls in this block default to `device`
        criterion = nn.CrossEntropyLoss(weight=torch.tensor(CLASS_WEIGHTS))
    X, y = X.to(device), y.to(device)
    loss = criterion(net(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
