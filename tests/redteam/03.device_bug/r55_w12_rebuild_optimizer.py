# expect: fail rebuilds the optimizer inside the step ("create it after .to(device)"): the caller's opt and its state (momentum) are dropped every call
# hint: optimi[sz]|opt\b|momentum|state|rebuil|new optimizer
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    net.to(device)
    # chapter 3.1: build the optimizer *after* net.to(device), same settings as the one given
    opt = type(opt)(net.parameters(), **opt.defaults)
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
