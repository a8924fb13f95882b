# expect: pass
# hint:
# Right: a callable instance; the class weights are cached per device (the key is the device), so
# each call uses weights on its own `device`; the batch is moved with .to(device) (a no-op if there).
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


class WeightedStep:
    """One SGD step with a class-weighted cross-entropy, every tensor on the given device."""

    def __init__(self, class_weights):
        self.class_weights = tuple(class_weights)
        self._weights = {}  # torch.device -> the class weights made there

    def weights_on(self, device):
        if device not in self._weights:
            self._weights[device] = torch.tensor(self.class_weights, device=device)
        return self._weights[device]

    def __call__(self, net, X, y, opt, device):
        device = torch.device(device)
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=self.weights_on(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()


answer = WeightedStep(CLASS_WEIGHTS)
