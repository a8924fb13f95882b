# expect: fail fixed, but prints loss.item() every step: a host read (GPU sync) per step
# hint: item|print|host|sync|read
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    w = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=w)
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"loss {loss.item():.4f}")
    return loss.detach()
