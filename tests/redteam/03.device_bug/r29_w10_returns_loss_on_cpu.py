# expect: fail Returns loss.detach().cpu(): a tensor, as asked, but a device-to-host copy that makes the CPU wait for the GPU at every step, the very cost that returning a tensor instead of loss.item() avoids; on a CPU-only machine the .cpu() is free and it hides.
# hint: (\.cpu\(\)|host|sync|wait|copy|device of the (loss|result)|on the cpu|returned tensor)
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach().cpu()  # a plain CPU tensor for logging


answer = train_step
