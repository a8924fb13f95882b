# expect: fail it sets torch.set_default_device(device) and "restores" it with set_default_device("cpu"), not the caller's setting (and not in a finally)
# hint: default.?device|process.?wide|global|restor|put back|setting|device.?context
# Wrong by the exercise's rule (put back any process-wide setting you change): a caller whose
# default device was None now has a DeviceContext mode installed for good; one whose default was
# another device finds it on the CPU. get_default_device() reads "cpu" either way.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    torch.set_default_device(device)  # every tensor the step makes lands on device
    class_weights = torch.tensor(CLASS_WEIGHTS)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    torch.set_default_device("cpu")  # back to the default
    return loss.detach()
