# expect: fail moves the model to the CPU, where the data is
# hint: keep the model on its device
import torch
import torch.nn.functional as F
CLASS_WEIGHTS = [1.0, 2.0, 1.0]
def answer(net, X, y, opt, device):
    net.to("cpu")
    loss = F.cross_entropy(net(X), y, weight=torch.tensor(CLASS_WEIGHTS))
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.detach()
