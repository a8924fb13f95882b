# expect: fail Fixes the batch but still builds the class weights on the CPU, one of the two bugs, which fails on a GPU (and on meta) when cross_entropy mixes them with device tensors.
# hint: weight|class_weights|cpu|same device
# name: train_step
import torch
import torch.nn.functional as F
from torch import nn  # noqa: F401

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
