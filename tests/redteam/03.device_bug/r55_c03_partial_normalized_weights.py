# expect: pass functools.partial loss with normalized weights (the scale cancels in the weighted mean), device read from the parameters, net.zero_grad()
# hint:
import functools

import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    where = next(net.parameters()).device  # the model is already on `device`
    w = torch.tensor(CLASS_WEIGHTS, device=where)
    loss_fn = functools.partial(F.cross_entropy, weight=w / w.sum(), reduction="mean")
    X, y = (t.to(where) for t in (X, y))
    loss = loss_fn(net(X), y)
    net.zero_grad()  # opt holds exactly net's parameters
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
