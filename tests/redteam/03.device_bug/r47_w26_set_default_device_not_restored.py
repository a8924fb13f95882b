# expect: fail torch.set_default_device(device) to make the weights there, never put back: a process-wide setting changed
# hint: default.?device|set_default_device|process.?wide|put back|restore|changed|left
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    torch.set_default_device(device)  # new tensors are made on device from now on
    class_weights = torch.tensor(CLASS_WEIGHTS)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
