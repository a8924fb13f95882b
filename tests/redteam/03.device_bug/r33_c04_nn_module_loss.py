# expect: pass nn.CrossEntropyLoss module with the weight tensor on device, zero_grad before forward
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    criterion = torch.nn.CrossEntropyLoss(weight=torch.tensor(CLASS_WEIGHTS).to(device))
    opt.zero_grad()
    out = net(X.to(device))
    loss = criterion(out, y.to(device))
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
