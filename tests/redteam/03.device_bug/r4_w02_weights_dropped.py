# expect: fail drops the class weights instead of moving them
# hint: weight|class_weights|CLASS_WEIGHTS|loss|reference|differ
import torch.nn.functional as F
def answer(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y)
    opt.zero_grad(); loss.backward(); opt.step()
    return loss.detach()
