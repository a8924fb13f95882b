# expect: fail Adds clip_grad_norm_(max_norm=1.0) before opt.step(), a habit from other training loops: not the same computation; the step equals the reference only while the gradient norm stays under 1.
# hint: (clip|norm|max_norm|same computation|differ|reference|extra)
import torch
import torch.nn.functional as F
from torch import nn

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)  # keep the step stable
    opt.step()
    return loss.detach()


answer = train_step
