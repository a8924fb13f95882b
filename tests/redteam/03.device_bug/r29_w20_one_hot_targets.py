# expect: fail Passes one-hot probability targets instead of class indices: with weight=, cross_entropy then divides by the batch size, not by the sum of the targets' weights, so the loss differs whenever a class with weight 2 is in the batch (the same only when every label is class 0 or 2).
# hint: (one.?hot|probabilit|soft (label|target)|target|normali[sz]|divid|sum of (the )?weights|weighted mean|reduction)
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    logits = net(X)
    targets = F.one_hot(y, num_classes=logits.shape[1]).to(logits.dtype)
    loss = F.cross_entropy(logits, targets, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
