# expect: fail moves the batch and weights with .cuda() when CUDA is available instead of to the given device (stays on the CPU for meta, wrong GPU for cuda:1)
# hint: given device|device argument|\bdevice\b.{0,40}(ignored|argument|parameter)|\.cuda\(|hard.?cod|meta|cuda:1
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the GPU when there is one."""
    class_weights = torch.tensor(CLASS_WEIGHTS)
    if torch.cuda.is_available():
        X, y, class_weights = X.cuda(), y.cuda(), class_weights.cuda()
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
