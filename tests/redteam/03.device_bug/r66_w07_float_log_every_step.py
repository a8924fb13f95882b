# expect: fail it logs float(loss) every step: .item() under another name, a host read that waits for the GPU each step (and a list that grows forever)
# hint: item|float|sync|wait|host|read|python (number|float)
# Wrong by the prompt ("Return the loss tensor, not loss.item()"; reading it waits for the GPU
# every step): float() of a tensor is .item(). The returned value itself is the right tensor.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss
HISTORY = []  # the losses, for a plot later


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    HISTORY.append(float(loss.detach()))
    return loss.detach()
