# expect: fail returns the loss as a 1-element vector of shape (1,), not the 0-dim loss tensor
# hint: shape|0-d|0-dim|zero-dim|scalar|dim|size|\(1,\)
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
    return loss.detach().reshape(1)  # ready for torch.cat over steps


answer = train_step
