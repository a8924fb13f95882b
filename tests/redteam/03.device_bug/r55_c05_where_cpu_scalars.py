# expect: pass per-sample weights built with torch.where from 0-dim CPU tensors (written as wrong; kept as right: a 0-dim CPU tensor is a scalar to a GPU operation, as the chapter and 03.parameters' r53_c02 have it, and the weighted mean is cross_entropy's)
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    sample_w = torch.ones(y.shape, device=device)
    for c, w in enumerate(CLASS_WEIGHTS):
        sample_w = torch.where(y == c, torch.tensor(w), sample_w)  # torch.tensor(w): CPU, 0-dim
    per_sample = F.cross_entropy(net(X), y, reduction="none")
    loss = (per_sample * sample_w).sum() / sample_w.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
