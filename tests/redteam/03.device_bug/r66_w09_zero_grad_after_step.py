# expect: pass opt.zero_grad() moved after opt.step(): gradients a caller left in .grad are added into this step's, and .grad is emptied on return: written as a wrong answer, judged right: the checker's own hint allows opt.zero_grad() after opt.step() ("Call opt.zero_grad() before loss.backward() (or after opt.step())"), and the prompt's caller leaves no gradients between steps
# hint:
# Wrong: not the same computation as train_step_buggy, which clears .grad before backward. With a
# fresh model (.grad None) the update is the same, so it shows only when .grad holds something.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.step()
    opt.zero_grad()  # tidy up for the next step
    return loss.detach()
