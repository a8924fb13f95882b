# expect: fail a NaN guard (assert torch.isfinite(loss)) reads the loss on the host: a GPU sync every step, and an error on meta
# hint: sync|host|item|read|bool|isfinite|nan|wait|meta|data-dependent|data dependent
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    assert torch.isfinite(loss), "loss diverged"  # popular advice: fail fast on NaN
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
