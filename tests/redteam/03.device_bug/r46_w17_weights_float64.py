# expect: fail class weights built from numpy: float64, which cross_entropy refuses next to float32 logits
# hint: dtype|float64|double|float32|Float|weight
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

import numpy as np


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.from_numpy(np.array(CLASS_WEIGHTS)).to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
