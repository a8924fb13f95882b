# expect: pass weights made inside a `with torch.device(device):` block (restored on exit), loss as nll_loss of log_softmax
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    with torch.device(device):  # factory calls in here land on device; undone on exit
        class_weights = torch.tensor(CLASS_WEIGHTS)
    X, y = (t.to(device) for t in (X, y))
    log_probs = F.log_softmax(net(X), dim=1)
    loss = F.nll_loss(log_probs, y, weight=class_weights)  # cross_entropy, spelled out
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
