# expect: pass nn.CrossEntropyLoss module with the weights on device, batch copied with non_blocking=True
# hint:
import torch
from torch import nn

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X = X.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    criterion = nn.CrossEntropyLoss(weight=torch.tensor(CLASS_WEIGHTS, device=device))
    loss = criterion(net(X), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
