# expect: fail returns a tuple (loss, logits) instead of the loss tensor alone
# hint: tuple|return.{0,40}(loss|tensor)|loss tensor|one tensor|0.?d|scalar|logits
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed; also returns the logits, for accuracy."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    logits = net(X)
    loss = F.cross_entropy(logits, y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach(), logits.detach()


answer = train_step
