# expect: fail pins the batch before copying: pin_memory needs CUDA and a CPU tensor, so it fails without a GPU and on a batch already moved
# hint: pin|batch|\bX\b|CUDA|driver|raised|error|exception
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X = X.pin_memory().to(device, non_blocking=True)  # pinned memory: asynchronous copy
    y = y.pin_memory().to(device, non_blocking=True)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
