# expect: fail per-sample weights then .mean(): divides by N, not by the sum of the weights (not the same loss)
# hint: weight|normali[sz]|mean|reduction|sum|loss value|differ|reference
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    per_sample = F.cross_entropy(net(X), y, reduction="none")
    loss = (per_sample * class_weights[y]).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
