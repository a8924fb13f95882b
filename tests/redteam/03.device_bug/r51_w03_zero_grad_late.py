# expect: fail zero_grad() between backward() and step(): the step sees no gradients and the model never changes
# hint: zero_grad|grad|step|update|order|never changes|reference|differ
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.zero_grad()  # "clear the old gradients" -- one line too late
    opt.step()
    return loss.detach()


answer = train_step
