# expect: fail batch X, y not moved (only the class weights fixed)
# hint: batch|\bX\b|\by\b|input|target|label
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
