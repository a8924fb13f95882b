# expect: pass takes the device from the model's own parameters (the model is already on device) and moves batch and weights there
# hint: 
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    where = next(net.parameters()).device  # the model is already on `device`
    logits = net(X.to(where))
    loss = F.cross_entropy(logits, y.to(where), weight=torch.tensor(CLASS_WEIGHTS, device=where))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
