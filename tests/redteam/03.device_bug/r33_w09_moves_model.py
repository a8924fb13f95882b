# expect: fail moves the model to the batch's device (the CPU) instead of the batch to the model's device
# hint: model|net|device|mov|parameter|cpu
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    net.to(X.device)  # put the model where the data is
    class_weights = torch.tensor(CLASS_WEIGHTS, device=X.device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
