# expect: fail calls opt.step() before loss.backward(), so each step applies the previous step's (or no) gradient
# hint: step|order|backward|gradient|reference|differ
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    opt.step()
    loss.backward()
    return loss.detach()

answer = train_step
