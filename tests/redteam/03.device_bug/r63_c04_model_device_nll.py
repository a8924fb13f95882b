# expect: pass
# hint:
# Right: the device is read from the model's parameters (the docstring's "the model's device",
# which is `device`), and the loss is written as log_softmax + weighted nll_loss, the same
# computation as cross_entropy(weight=...); the weights get the logits' dtype and device.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    where = next(net.parameters()).device
    logits = net(X.to(where))
    weight = torch.tensor(CLASS_WEIGHTS, dtype=logits.dtype, device=where)
    loss = F.nll_loss(F.log_softmax(logits, dim=1), y.to(where), weight=weight)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
