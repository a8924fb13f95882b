# expect: pass device read from the model's parameters, zero_grad first, non_blocking copies, as_tensor
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    model_device = next(net.parameters()).device  # the same as device: net is already there
    opt.zero_grad(set_to_none=True)
    X = X.to(model_device, non_blocking=True)
    y = y.to(model_device, non_blocking=True)
    logits = net(X)
    weights = torch.as_tensor(CLASS_WEIGHTS, dtype=logits.dtype, device=logits.device)
    loss = F.cross_entropy(logits, y, weight=weights)
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
