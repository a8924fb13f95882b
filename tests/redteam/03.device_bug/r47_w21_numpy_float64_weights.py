# expect: fail class weights built from a numpy array are float64: right device, wrong dtype (meta accepts it, real tensors do not)
# hint: dtype|float64|double|float32|type|numpy|weight|class.?weights
import numpy as np
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.from_numpy(np.array(CLASS_WEIGHTS)).to(device)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
