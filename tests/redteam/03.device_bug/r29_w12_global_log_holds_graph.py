# expect: fail Appends the attached loss to a module-level list for logging: the returned value is right, but every step's autograd graph (and its activations, on the GPU) stays referenced by the list, so memory grows with every call.
# hint: (graph|memory|leak|hold|list|append|history|attached|detach|grows|kept)
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]
LOSS_HISTORY = []  # for plotting later


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    LOSS_HISTORY.append(loss)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
