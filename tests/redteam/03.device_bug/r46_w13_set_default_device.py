# expect: fail torch.set_default_device(device) left set: a process-wide setting changed and not put back
# hint: default.?device|set_default|process|put back|restor|setting|changed|left
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    torch.set_default_device(device)  # new tensors land on device from now on
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
