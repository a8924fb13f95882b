# expect: fail class weights placed on device.type ("cuda", the current GPU) instead of device: wrong on cuda:1
# hint: index|cuda:1|cuda:0|current (gpu|device)|device\.type|same device|weight
# open: device.type is the device itself on the meta device and the CPU, where the checker runs the step; only a second GPU (cuda:1 given, the current one cuda:0) shows the weights on the wrong GPU
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    kind = torch.device(device).type  # "cuda", "cpu" or "meta"
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=kind)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
