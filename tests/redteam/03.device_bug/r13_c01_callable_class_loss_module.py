# expect: pass a class with __call__, nn.CrossEntropyLoss whose weight buffer is moved per device
# hint: 
import torch
from torch import nn

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


class TrainStep:
    """The fixed step; keeps one weighted loss module per device."""

    def __init__(self, class_weights):
        self.class_weights = list(class_weights)
        self._losses = {}

    def _loss_on(self, device):
        device = torch.device(device)
        if device not in self._losses:
            # weight is a registered buffer of the loss module: .to(device) moves it
            self._losses[device] = nn.CrossEntropyLoss(
                weight=torch.tensor(self.class_weights)
            ).to(device)
        return self._losses[device]

    def __call__(self, net, X, y, opt, device):
        X = X.to(device)
        y = y.to(device)
        loss = self._loss_on(device)(net(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()


answer = TrainStep(CLASS_WEIGHTS)
