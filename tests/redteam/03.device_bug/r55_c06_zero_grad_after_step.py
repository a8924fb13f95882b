# expect: pass calls zero_grad() after opt.step() instead of before backward (written as wrong; kept as right, as r29_c14: the gradients are cleared for the next step)
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.step()
    opt.zero_grad()  # tidy up after the step: .grad is None between steps
    return loss.detach()


answer = train_step
