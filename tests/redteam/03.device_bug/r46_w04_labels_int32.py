# expect: fail labels moved as int32 to save memory: cross_entropy wants int64 targets
# hint: dtype|int32|int64|long|target|label|\by\b
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X = X.to(device)
    y = y.to(device, torch.int32)  # three classes fit in 32 bits
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
