# expect: fail zero_grad between backward and step
# hint: zero_grad\(\) ran between loss\.backward\(\) and opt\.step\(\)
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=torch.tensor(CLASS_WEIGHTS, device=device))
    loss.backward(); opt.zero_grad(); opt.step()
    return loss.detach()
