# expect: pass class weights normalized to sum 1 (a weighted mean is unchanged by scaling the weights)
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    weights = torch.tensor(CLASS_WEIGHTS, device=device)
    weights = weights / weights.sum()  # the weighted mean divides by the weights' sum anyway
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
