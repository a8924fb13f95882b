# expect: fail copy_ the wrong way round: the empty device buffer is copied into the caller's CPU batch
# hint: copy_|direction|caller|in.?place|batch|overwr|uninitiali|empty
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X_dev = torch.empty_like(X, device=device)
    y_dev = torch.empty_like(y, device=device)
    X.copy_(X_dev, non_blocking=True)  # meant: X_dev.copy_(X)
    y.copy_(y_dev, non_blocking=True)
    loss = F.cross_entropy(net(X_dev), y_dev, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
