# expect: fail weights made with torch.as_tensor(..., dtype=X.dtype) before X is moved: still on the CPU
# hint: as_tensor.*without device=
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    w = torch.as_tensor(CLASS_WEIGHTS, dtype=X.dtype)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=w)
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.detach()
