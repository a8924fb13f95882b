# expect: fail weighted loss written out as a plain mean of weighted per-sample losses, not normalised by the weights' sum
# hint: loss|reference|differ|value|mean|weight|normali
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    per_sample = F.cross_entropy(net(X), y, reduction="none")
    loss = (class_weights[y] * per_sample).mean()  # weight each sample, then average
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
