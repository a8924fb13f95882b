# expect: fail zero_grad between backward and step: the step uses no gradient
# hint: zero_grad|order|grad|reference|differ|parameter|update
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.zero_grad()  # clear before the update so nothing stale is used
    opt.step()
    return loss.detach()


answer = train_step
