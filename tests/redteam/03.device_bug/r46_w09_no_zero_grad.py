# expect: fail no opt.zero_grad(): gradients pile up from step to step
# hint: zero_grad|accumul|grad|reference|differ|parameter
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()  # zero_grad is done by the caller (it is not)
    opt.step()
    return loss.detach()


answer = train_step
