# expect: fail leaves out opt.zero_grad(): gradients accumulate from step to step (the first step alone is right)
# hint: zero_grad|accumulat|gradient|\.grad
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
