# expect: fail moves the tensors in a for loop that only rebinds the loop variable: X, y and the weights stay on the CPU
# hint: batch|\bX\b|\by\b|input|label|target|weight|\.to\(|assign|rebind|loop|not kept
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS)
    for t in (X, y, class_weights):
        t = t.to(device)  # rebinds t only
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
