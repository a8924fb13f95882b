# expect: pass builds the class weights on the CPU and copies them with .to(device) before the loss, as it does the batch
# hint: 
# name: train_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS).to(device)
    X, y = (t.to(device) for t in (X, y))
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
