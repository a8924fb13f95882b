# expect: fail y left on the CPU
# hint: the batch y is still on the CPU
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    X = X.to(device)
    w = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=w)
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.detach()
