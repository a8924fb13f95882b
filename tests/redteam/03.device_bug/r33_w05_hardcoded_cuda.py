# expect: fail hard-codes 'cuda' when a GPU is available and otherwise the CPU, ignoring the device argument
# hint: device|cuda|hard.?cod|argument|meta|cpu
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    X, y = X.to(dev), y.to(dev)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=dev)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
