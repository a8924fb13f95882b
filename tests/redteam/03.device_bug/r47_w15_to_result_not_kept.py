# expect: fail X.to(device) and y.to(device) called but their results thrown away: the batch stays on the CPU
# hint: batch|\bX\b|\by\b|input|label|target|\.to\(|assign|returns? a new|not kept|thrown away
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X.to(device)  # the batch must be where the weights are
    y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
