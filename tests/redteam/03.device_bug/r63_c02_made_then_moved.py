# expect: pass
# hint:
# Right (an equivalent form a strict checker might refuse): the weights are made on the CPU and
# then copied with .to(device); the tensor cross_entropy gets is on device, as the prompt asks.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = torch.tensor(CLASS_WEIGHTS).to(device)
    X = X.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
