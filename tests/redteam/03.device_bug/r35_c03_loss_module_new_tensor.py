# expect: pass nn.CrossEntropyLoss with the weight tensor made by inputs.new_tensor (the moved batch's device and dtype), and the loss returned detached.
# hint:
# name: train_step
import torch
import torch.nn.functional as F
from torch import nn  # noqa: F401

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    inputs, labels = X.to(device), y.to(device)
    criterion = nn.CrossEntropyLoss(weight=inputs.new_tensor(CLASS_WEIGHTS))
    loss = criterion(net(inputs), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
