# expect: fail legacy torch.Tensor(...) inside a torch.device context: the legacy constructor ignores the context and makes a CPU tensor
# hint: class.?weight|weight|torch\.Tensor|cpu|legacy
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    with torch.device(device):  # tensors made in here go to device (not torch.Tensor's)
        class_weights = torch.Tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
