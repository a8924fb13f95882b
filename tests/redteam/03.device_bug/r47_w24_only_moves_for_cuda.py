# expect: fail moves tensors only when device.type == "cuda": on any other device (meta, xpu, mps) they stay on the CPU
# hint: meta|`device`|on device|every tensor|cpu|only (on )?(a )?(gpu|cuda)
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS)
    if torch.device(device).type == "cuda":  # only a GPU needs the copies
        class_weights = class_weights.to(device)
        X, y = X.to(device, non_blocking=True), y.to(device, non_blocking=True)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
