# expect: fail builds a new SGD optimizer inside the step, ignoring the opt it is given
# hint: opt|optimi|reference|differ|parameter|lr|learning
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)  # built after the model is on device
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
