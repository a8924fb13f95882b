# expect: fail calls opt.step() before loss.backward(), and zero_grad clears the new gradients next step: the model never updates after the first step's loss
# hint: step.{0,40}(before|after)|order|backward|never (update|change|learn)|not (updat|train|learn|chang)|zero_grad|same loss
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    opt.step()
    loss.backward()
    return loss.detach()


answer = train_step
