# expect: fail returns the loss recomputed after opt.step() (the updated model's loss), not the step's loss
# hint: loss|after|update|before|step|value|reference
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():  # report where the step got us
        return F.cross_entropy(net(X), y, weight=class_weights)


answer = train_step
