# expect: fail the class weights are made once at import time on d2lgpu.try_gpu(), not on the step's `device`
# hint: weight|try_gpu|import
# Wrong: the constant is built outside the step, on the notebook's default device; a step on
# any other device (meta, another GPU) mixes it with the model's tensors.
import torch
import torch.nn.functional as F

import d2lgpu

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss
CLASS_WEIGHTS_T = torch.tensor(CLASS_WEIGHTS, device=d2lgpu.try_gpu())  # built once, "on the GPU"


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=CLASS_WEIGHTS_T)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
