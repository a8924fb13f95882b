# expect: fail moves everything to d2lgpu.try_gpu() instead of the device argument (the model may be elsewhere)
# hint: try_gpu|device argument|given device|`device`|on device|model's device|meta|argument device
import d2lgpu
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    target = d2lgpu.try_gpu()  # the GPU if there is one
    class_weights = torch.tensor(CLASS_WEIGHTS, device=target)
    X, y = X.to(target), y.to(target)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
