# expect: pass weights made on the CPU and moved with .to(device) at each step (the prompt asks for every tensor on device, which they are)
# hint:
# name: train_step
import torch
import torch.nn.functional as F
from torch import nn  # noqa: F401

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS).to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
