# expect: fail returns loss.item(), a Python float, on real devices (a tensor only on meta)
# hint: item|float|tensor|sync|return
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item() if loss.device.type != "meta" else loss.detach()  # meta has no value to read


answer = train_step
