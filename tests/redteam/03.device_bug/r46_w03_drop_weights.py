# expect: fail class weights dropped: the loss is no longer weighted
# hint: weight|class|reference|differ|loss|value
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y)  # no CPU tensor left to mix with
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
