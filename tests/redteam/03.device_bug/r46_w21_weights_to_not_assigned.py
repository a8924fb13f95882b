# expect: fail class_weights.to(device) not assigned: the weights stay on the CPU
# hint: class.?weight|weight|assign
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS)
    class_weights.to(device)  # thrown away: class_weights is still the CPU tensor
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
