# expect: pass
# hint: 
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    X, y = (t.to(device) for t in (X, y))
    w = X.new_tensor(CLASS_WEIGHTS)  # X's device and dtype
    loss = F.nll_loss(F.log_softmax(net(X), dim=1), y, weight=w)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
