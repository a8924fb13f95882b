# expect: fail class weights made on X.device (the CPU batch) before X is moved
# hint: class.?weights?|CLASS_WEIGHTS|X\.device.*(until|before) X is moved
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = torch.tensor(CLASS_WEIGHTS, device=X.device)  # "same device as the data"
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
