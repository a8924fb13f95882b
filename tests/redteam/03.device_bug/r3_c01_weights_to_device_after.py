# expect: pass weights made on the CPU and moved; batch moved with non_blocking
# hint: 
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    X = X.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    w = torch.tensor(CLASS_WEIGHTS).to(device)
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(net(X), y, weight=w)
    loss.backward()
    opt.step()
    return loss.detach()
