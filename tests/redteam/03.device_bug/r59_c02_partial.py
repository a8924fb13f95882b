# expect: pass a general weighted step bound to the class weights with functools.partial; batch moved with non_blocking=True
# hint:
import functools

import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def weighted_step(net, X, y, opt, device, *, weights):
    """One SGD step of net on (X, y) with a class-weighted cross-entropy, all on device."""
    X, y = (t.to(device, non_blocking=True) for t in (X, y))
    weight = torch.as_tensor(weights, dtype=torch.float32, device=device)
    loss = F.cross_entropy(net(X), y, weight=weight)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss.detach()


train_step = functools.partial(weighted_step, weights=CLASS_WEIGHTS)

answer = train_step
