# expect: fail builds the class weights on X.device before X is moved, so they are still made on the CPU
# hint: weight|class|device=
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS, device=X.device)  # same device as the batch
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
