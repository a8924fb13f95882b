# expect: fail "fixes" the mismatch by dropping the class weights: a different loss
# hint: weight|class.?weights|same (computation|loss)|reference|differ|loss
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y)  # no CPU tensor left to mismatch
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
