# expect: fail class_weights.to(y) copies y's dtype too: the weights become int64 (passes on meta, fails on real tensors)
# hint: dtype|int64|long|float|type|weight|class.?weights
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS).to(y)  # "to wherever the labels are"
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
