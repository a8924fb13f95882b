# expect: pass makes the class weights inside a `with torch.device(device):` block (a context that restores the default) and copies the batch with non_blocking=True
# hint: 
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X = X.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    with torch.device(device):  # only inside this block do new tensors land on device
        class_weights = torch.tensor(CLASS_WEIGHTS)
    opt.zero_grad()
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.step()
    return loss.detach()
