# expect: pass
# hint:
# Right: the weighted mean written out: per-example losses times weight[y], divided by the sum of
# those weights, which is what cross_entropy(weight=...) computes; zero_grad before the forward.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    opt.zero_grad()
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    per_example = F.cross_entropy(net(X), y, reduction="none")
    w = class_weights[y]
    loss = (per_example * w).sum() / w.sum()
    loss.backward()
    opt.step()
    return loss.detach()
