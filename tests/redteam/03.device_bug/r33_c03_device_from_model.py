# expect: pass takes the device from the model's first parameter (the docstring's 'model's device') and builds the weights with new_tensor on the moved batch
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    where = next(net.parameters()).device
    X = X.to(where)
    y = y.to(where)
    loss = F.cross_entropy(net(X), y, weight=X.new_tensor(CLASS_WEIGHTS))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()

answer = train_step
