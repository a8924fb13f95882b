# expect: fail puts the class weights on the device via torch.set_default_device(device) and never sets it back (a process-wide setting left changed)
# hint: default.?device|set_default|process|setting|changed|put back|restore
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    torch.set_default_device(device)  # new tensors now land on the model's device
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
