# expect: pass functools.partial binding the class weights to a generic step; weights made on the CPU then moved
# hint: 
import functools

import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def weighted_step(net, X, y, opt, device, *, class_weights):
    X, y = (t.to(device) for t in (X, y))
    w = torch.tensor(class_weights).to(device)  # copied to device like the batch
    loss = F.cross_entropy(net(X), y, weight=w)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


train_step = functools.partial(weighted_step, class_weights=tuple(CLASS_WEIGHTS))
answer = train_step
