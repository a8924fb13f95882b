# expect: pass Weights with torch.as_tensor(..., dtype=float32, device=device), the batch moved with non_blocking=True, and the gradients cleared before the forward pass (another valid order).
# hint:
# name: train_step
import torch
import torch.nn.functional as F
from torch import nn  # noqa: F401

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    opt.zero_grad(set_to_none=True)
    inputs = X.to(device, non_blocking=True)
    targets = y.to(device, non_blocking=True)
    weight = torch.as_tensor(CLASS_WEIGHTS, dtype=torch.float32, device=device)
    logits = net(inputs)
    loss = F.cross_entropy(logits, targets, weight=weight)
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
