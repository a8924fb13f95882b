# expect: fail ignores the device argument: moves everything to d2lgpu.try_gpu() instead
# hint: device (argument|parameter)|argument|ignor|try_gpu|hard.?cod|given device|model'?s device
# Wrong: the step must put the tensors on `device` (the model's device), not on whatever
# try_gpu() returns; with the model on meta (or another GPU) it mixes devices.
import torch
import torch.nn.functional as F

import d2lgpu

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    dev = d2lgpu.try_gpu()  # the GPU if there is one
    X, y = X.to(dev), y.to(dev)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=dev)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
