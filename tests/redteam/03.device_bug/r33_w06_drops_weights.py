# expect: fail removes the class weights instead of moving them, changing the loss
# hint: weight|class|loss|value|differ|reference
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
