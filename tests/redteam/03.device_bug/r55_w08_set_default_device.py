# expect: fail torch.set_default_device(device) to put the weights on the device, never put back (process-wide)
# hint: default.?device|set_default|process|put back|restor|changed|global setting
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    torch.set_default_device(device)  # every new tensor now lands on the model's device
    class_weights = torch.tensor(CLASS_WEIGHTS)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
