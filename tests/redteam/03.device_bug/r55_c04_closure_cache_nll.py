# expect: pass closure with a per-device cache of the class weights (keyed by the device the batch lands on), nll_loss on log_softmax
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def _make_train_step(class_weights):
    cache = {}  # device -> the weights there, made once per device

    def weights_on(dev):
        if dev not in cache:
            cache[dev] = torch.tensor(class_weights, dtype=torch.float32, device=dev)
        return cache[dev]

    def train_step(net, X, y, opt, device):
        """train_step_buggy, fixed: the batch and the class weights on the model's device."""
        X, y = X.to(device), y.to(device)
        logits = net(X)
        loss = F.nll_loss(F.log_softmax(logits, dim=-1), y, weight=weights_on(logits.device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    return train_step


answer = _make_train_step(tuple(CLASS_WEIGHTS))
