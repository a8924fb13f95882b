# expect: fail weights kept as a buffer of a module moved in place each call: after the meta call they have no data, later real steps crash
# hint: meta|no data|between calls|state|to_empty|cach|class.?weights|weight
import torch
import torch.nn.functional as F
from torch import nn

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


class WeightedLoss(nn.Module):
    def __init__(self, weights):
        super().__init__()
        self.register_buffer("class_weights", torch.tensor(weights))

    def forward(self, logits, y):
        return F.cross_entropy(logits, y, weight=self.class_weights)


class Trainer:
    def __init__(self):
        self.criterion = WeightedLoss(CLASS_WEIGHTS)

    def step(self, net, X, y, opt, device):
        self.criterion.to(device)  # a module's .to() moves its buffers in place
        X, y = X.to(device), y.to(device)
        loss = self.criterion(net(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()


answer = Trainer().step
