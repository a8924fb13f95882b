# expect: fail calls X.to(device) and y.to(device) without assigning: Tensor.to is not in place, the batch stays on the CPU
# hint: X|y|batch|assign|not in place|X = X\.to|on the cpu
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    X.to(device)
    y.to(device)
    w = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=w)
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.detach()
