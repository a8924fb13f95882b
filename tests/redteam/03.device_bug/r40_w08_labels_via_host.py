# expect: fail rebuilds y on the device from y.tolist(), a round trip through the host that fails on a batch already on the device
# hint: (tolist|host|\by\b|label|already|meta|copy)
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X = X.to(device)
    y = torch.tensor(y.tolist(), device=device)  # labels rebuilt on the device
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
