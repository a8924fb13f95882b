# expect: fail class weights left on the CPU (only the batch moved)
# hint: class.?weight|weight|torch\.tensor|CLASS_WEIGHTS
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
