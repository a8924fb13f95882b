# expect: fail hard-codes .cuda() instead of the device it is given
# hint: cuda\(\)|\.cuda|hard.?cod|device argument|given device|`device`|on device|no nvidia|driver
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS).cuda()
    X, y = X.cuda(), y.cuda()
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
