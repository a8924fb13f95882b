# expect: fail ignores the opt passed in and builds a fresh SGD(lr=0.1) every step
# hint: optimi[sz]er|\bopt\b|\blr\b|learning rate|SGD|momentum
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)  # after the model is on device
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.detach()


answer = train_step
