# expect: pass a callable object whose __call__ is the step; it keeps one class-weight tensor per device (made with device= there) in a dict
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


class DeviceSafeStep:
    """One SGD step with the batch and the class weights on the model's device."""

    def __init__(self, weights):
        self.weights = tuple(weights)
        self._by_device = {}

    def _class_weights(self, device):
        device = torch.device(device)
        if device not in self._by_device:
            self._by_device[device] = torch.tensor(self.weights, device=device)
        return self._by_device[device]

    def __call__(self, net, X, y, opt, device):
        X = X.to(device)
        y = y.to(device)
        loss = F.cross_entropy(net(X), y, weight=self._class_weights(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()


train_step = DeviceSafeStep(CLASS_WEIGHTS)

answer = train_step
