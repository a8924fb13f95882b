# expect: fail standardises the batch in place: a different computation, and on the CPU it edits the caller's X
# hint: loss|reference|differ|value|input|batch|mutat|in.?place|chang|caller
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)  # on the CPU .to() returns X itself
    X.sub_(X.mean(dim=0)).div_(X.std(dim=0) + 1e-5)  # normalised inputs train better
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
