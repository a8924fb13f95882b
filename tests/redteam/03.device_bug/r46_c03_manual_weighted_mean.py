# expect: pass writes the weighted cross-entropy out: per-sample losses, weighted sum over the sum of weights
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


class _Step:
    """A step object; calling it runs one step."""

    def __call__(self, net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        weights = torch.as_tensor(CLASS_WEIGHTS, dtype=torch.float32).to(device)
        per_sample = F.cross_entropy(net(X), y, reduction="none")
        w = weights[y]  # weight=... divides by the sum of the weights of the batch's targets
        loss = (per_sample * w).sum() / w.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()


_step = _Step()


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    return _step(net, X, y, opt, device)


answer = train_step
