# expect: fail ignores the device argument: moves to cuda-if-available (the CPU here), not to device
# hint: argument|parameter|ignor|try_gpu|is_available|hard.?cod|passed|given|cuda
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    X, y = X.to(dev), y.to(dev)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=dev)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
