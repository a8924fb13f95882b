# expect: pass zero_grad first, the loss written as nll_loss of log_softmax (what cross_entropy computes), weights in the logits' dtype on the parameters' device
# hint:
# name: fixed_step
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def fixed_step(net, X, y, opt, device):
    """train_step_buggy, fixed: every tensor on device."""
    device = torch.device(device)
    opt.zero_grad()
    logits = net(X.to(device))
    weights = torch.tensor(CLASS_WEIGHTS, dtype=logits.dtype, device=device)
    loss = F.nll_loss(F.log_softmax(logits, dim=1), y.to(device), weight=weights)
    loss.backward()
    opt.step()
    return loss.detach()
