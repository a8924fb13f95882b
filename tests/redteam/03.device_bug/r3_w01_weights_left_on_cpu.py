# expect: fail class weights still made on the CPU
# hint: without device=
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    w = torch.tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(net(X), y, weight=w)
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.detach()
