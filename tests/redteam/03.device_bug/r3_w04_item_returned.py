# expect: fail returns loss.item()
# hint: \.item\(\)
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=torch.tensor(CLASS_WEIGHTS, device=device))
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.item()
