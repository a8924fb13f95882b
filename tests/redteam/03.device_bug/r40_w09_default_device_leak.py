# expect: fail calls torch.set_default_device(device) so the class weights land there, and never puts the default back
# hint: (default.?device|set_default_device|global|process.?wide|restore|put back)
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    torch.set_default_device(device)  # new tensors on the model's device
    class_weights = torch.tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
