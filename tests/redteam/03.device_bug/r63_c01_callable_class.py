# expect: pass
# hint:
# Right: a callable class instance holding the class weights as a list; every call makes the
# weights with device=, moves the batch, and runs the same weighted cross-entropy step.
import torch
import torch.nn.functional as F


class WeightedStep:
    def __init__(self, class_weights):
        self.class_weights = list(class_weights)

    def __call__(self, net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        weight = torch.tensor(self.class_weights, device=device)
        loss = F.cross_entropy(net(X), y, weight=weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()


answer = WeightedStep([1.0, 2.0, 1.0])
