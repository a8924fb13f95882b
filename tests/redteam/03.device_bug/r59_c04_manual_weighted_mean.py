# expect: pass the weighted mean written by hand: sum(w[y] * loss_i) / sum(w[y]), which is what cross_entropy(weight=...) computes
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    per_example = F.cross_entropy(net(X), y, reduction="none")
    w = class_weights[y]
    loss = (w * per_example).sum() / w.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
