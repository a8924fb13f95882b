# expect: fail moves X and the class weights but forgets the labels y, left on the CPU
# hint: \by\b|label|target|batch
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X = X.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
