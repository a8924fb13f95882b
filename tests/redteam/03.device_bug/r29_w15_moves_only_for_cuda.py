# expect: fail Moves the batch and the weights only when device.type == "cuda": right on a CPU and on an NVIDIA GPU, but on any other device (meta, mps, xpu) every tensor stays on the CPU and mixes with the model's.
# hint: (cuda|device\.type|only (for|when|on)|meta|mps|xpu|other device|cpu|mismatch|not moved)
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS)
    if device.type == "cuda":  # on the CPU there is nothing to move
        X, y = X.to(device), y.to(device)
        class_weights = class_weights.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
