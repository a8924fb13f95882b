# expect: pass the device read from the model's parameters, an nn.CrossEntropyLoss with weights there
# hint: 
import torch
from torch import nn
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    dev = next(net.parameters()).device
    crit = nn.CrossEntropyLoss(weight=torch.tensor(CLASS_WEIGHTS, device=dev))
    out = net(X.to(dev))
    loss = crit(out, y.to(dev))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
