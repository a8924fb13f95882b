# expect: fail swaps cross_entropy for nll_loss on raw logits (no log_softmax), a different loss
# hint: cross_entropy|loss|log_softmax|nll|value|reference|differ|same computation
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.nll_loss(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
