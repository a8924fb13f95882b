# expect: fail builds a fresh SGD optimizer inside the step and ignores the opt it was given
# hint: opt\b|optimi[sz]er|lr|learning rate|momentum|reference|differ
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    net.to(device)
    # "create the optimizer after net.to(device)" (chapter 3.1); Adam, as fit() uses
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
