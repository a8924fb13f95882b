# expect: fail calls X.to(device) and y.to(device) without assigning: a tensor's .to() returns a new tensor
# hint: \.to\(|assign|batch|X\b|cpu|same device|mix
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X.to(device)  # like net.to(device)... but tensors are not moved in place
    y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
