# expect: fail weights slipped to [1, 1, 2]: class 2 counts double instead of class 1
# hint: weight|class|reference|differ|loss|value
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor([1.0, 1.0, 2.0], device=device)  # class 1 counts double
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
