# expect: pass weighted cross-entropy written out: log_softmax, gather, sum of weighted terms divided by the sum of the weights
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X = X.to(device)
    y = y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    log_p = F.log_softmax(net(X), dim=1)
    picked = log_p.gather(1, y.unsqueeze(1)).squeeze(1)
    w = class_weights[y]
    loss = -(w * picked).sum() / w.sum()  # what cross_entropy(weight=...) computes
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
