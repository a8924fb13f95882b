# expect: fail class weights made on X.device before X is moved: the CPU when the batch arrives on the CPU
# hint: class.?weight|weight|X\.device|cpu
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS, device=X.device)  # next to the data
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
