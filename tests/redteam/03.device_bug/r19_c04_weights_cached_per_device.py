# expect: pass callable class caching the class weights per (device, dtype), so each device gets its own copy
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


class TrainStep:
    def __init__(self, class_weights):
        self.class_weights = class_weights
        self._cache = {}

    def weights_like(self, logits):
        key = (logits.device, logits.dtype)
        if key not in self._cache:
            self._cache[key] = torch.tensor(
                self.class_weights, device=logits.device, dtype=logits.dtype
            )
        return self._cache[key]

    def __call__(self, net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        logits = net(X)
        loss = F.cross_entropy(logits, y, weight=self.weights_like(logits))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()


train_step = TrainStep(CLASS_WEIGHTS)
answer = train_step
