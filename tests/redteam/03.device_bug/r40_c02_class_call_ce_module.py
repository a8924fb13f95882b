# expect: pass a class instance with __call__, nn.CrossEntropyLoss(weight=...) built on the device, torch.as_tensor for the weights
# hint: 
# name: train_step
import torch
from torch import nn

CLASS_WEIGHTS = (1.0, 2.0, 1.0)  # class 1 counts double in the loss


class FixedStep:
    def __call__(self, net, X, y, opt, device):
        criterion = nn.CrossEntropyLoss(weight=torch.as_tensor(CLASS_WEIGHTS, device=device))
        inputs = X.to(device)
        targets = y.to(device)
        opt.zero_grad(set_to_none=True)
        loss = criterion(net(inputs), targets)
        loss.backward()
        opt.step()
        return loss.detach()


train_step = FixedStep()
