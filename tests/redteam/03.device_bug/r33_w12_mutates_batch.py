# expect: fail moves the caller's X and y in place by assigning .data, mutating the inputs
# hint: input|in.?place|mutat|caller|\.data|batch|chang
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    X.data = X.data.to(device)  # move the batch itself, no new tensor
    y.data = y.data.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
