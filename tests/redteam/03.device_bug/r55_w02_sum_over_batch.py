# expect: fail weighted loss divided by the batch size, not by the summed weights of the targets (not the same loss)
# hint: weight|normali[sz]|mean|reduction|sum|loss value|differ|reference
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    # "mean over the batch", written out: sum of the weighted losses / batch size
    loss = F.cross_entropy(net(X), y, weight=class_weights, reduction="sum") / y.shape[0]
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
