# expect: fail calls opt.zero_grad() between backward and step, so the step uses no gradient
# hint: (zero_grad|order|gradient|step|reference|update)
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.zero_grad()
    opt.step()
    return loss.detach()
