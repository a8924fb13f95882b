# expect: fail moves the model to the batch's device (the CPU) for the step and back afterwards
# hint: model|net|parameters?.{0,40}(mov|cpu|copy)|\.to\(.{0,20}(cpu|x\.device)|batch.{0,30}(cpu|device)
# Wrong: the fix goes the wrong way: the step runs on the CPU with the whole model copied
# there and back each step; the parameters are on device again only when it returns.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    net.to(X.device)  # in place, same Parameter objects: the optimizer still holds them
    class_weights = torch.tensor(CLASS_WEIGHTS, device=X.device)
    loss = F.cross_entropy(net(X), y.to(X.device), weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    net.to(device)  # and back where the caller put it
    return loss.detach().to(device)
