# expect: fail moves the output back to the CPU and computes the loss there (crashes on meta; host work on a GPU)
# hint: cpu|host|\.cpu|out of meta|same device|output|loss.{0,30}device
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    out = net(X.to(device)).cpu()  # y and the weights are on the CPU: meet them there
    class_weights = torch.tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(out, y.cpu(), weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
