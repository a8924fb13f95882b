# expect: fail drops the class weights from the loss (weight= left out) instead of keeping them
# hint: (class.?weight|weight|same computation|reference|loss)
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
