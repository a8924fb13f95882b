# expect: pass
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    X, y = map(lambda t: t.to(device), (X, y))
    logits = net(X)
    # new_tensor: the device and dtype of the logits, which live where the model does
    class_weights = logits.new_tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(logits, y, weight=class_weights, reduction="mean")
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
