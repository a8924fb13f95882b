# expect: pass torch.device(...) as a context manager for the weights, non_blocking copies, zero_grad(set_to_none=False)
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X = X.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    with torch.device(device):  # factory functions inside make their tensors on device
        class_weights = torch.tensor(CLASS_WEIGHTS)
    logits = net(X)
    loss = F.cross_entropy(logits, y, weight=class_weights)
    opt.zero_grad(set_to_none=False)  # zeros instead of None: the same update
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
