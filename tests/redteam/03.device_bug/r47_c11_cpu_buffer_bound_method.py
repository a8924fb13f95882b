# expect: pass weights kept on the CPU as a registered buffer of a small loss module, copied per call with .to(logits); answer is a bound method
# hint:
import torch
import torch.nn.functional as F
from torch import nn

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


class WeightedLoss(nn.Module):
    def __init__(self, weights):
        super().__init__()
        self.register_buffer("class_weights", torch.tensor(weights))  # master copy, stays on the CPU

    def forward(self, logits, y):
        # a fresh copy on the logits' device (and dtype) each call; the master copy is untouched
        return F.cross_entropy(logits, y, weight=self.class_weights.to(logits))


class Trainer:
    def __init__(self):
        self.criterion = WeightedLoss(CLASS_WEIGHTS)

    def step(self, net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = self.criterion(net(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()


answer = Trainer().step
