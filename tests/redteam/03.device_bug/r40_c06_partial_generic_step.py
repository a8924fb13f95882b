# expect: pass functools.partial over a generic weighted step (weights and loss function as keywords), nll_loss of log_softmax (the same loss)
# hint: 
# name: train_step
import functools

import torch
import torch.nn.functional as F


def _weighted_step(net, X, y, opt, device, *, weights):
    w = torch.tensor(weights, dtype=torch.float32, device=device)
    log_probs = F.log_softmax(net(X.to(device)), dim=1)
    loss = F.nll_loss(log_probs, y.to(device), weight=w)  # cross_entropy, in two steps
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


train_step = functools.partial(_weighted_step, weights=[1.0, 2.0, 1.0])
