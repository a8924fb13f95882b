# expect: fail moves X and y with .to(device, torch.float32): the labels become floats, which cross_entropy reads as probabilities
# hint: dtype|float|int64|long|label|target|\by\b|type
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = (t.to(device, torch.float32) for t in (X, y))
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
