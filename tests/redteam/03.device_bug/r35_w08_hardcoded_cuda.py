# expect: fail Picks the weights' device itself (cuda if available, else cpu) instead of using the device argument, which breaks when the model is elsewhere, as on the meta device.
# hint: device argument|device=|same device|cuda|meta|hard.?cod
# name: train_step
import torch
import torch.nn.functional as F
from torch import nn  # noqa: F401

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device="cuda" if torch.cuda.is_available() else "cpu")
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
