# expect: fail opt.zero_grad() dropped: gradients accumulate, so the second and later steps are wrong
# hint: zero.?grad|accumulat|\.grad|second step|later steps|gradients? (add|pile|sum)
# Wrong: backward() adds into .grad; without zero_grad the first step is right but every later
# step uses the sum of all gradients so far.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.step()
    return loss.detach()
