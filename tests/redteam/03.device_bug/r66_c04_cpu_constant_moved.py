# expect: pass
# hint:
# Right: the class weights are a module-level CPU constant moved with .to(device) inside the step,
# exactly like the batch (the same host-to-device copy torch.tensor(..., device=device) makes); the
# device is read from the model's parameters, which the prompt says are on `device`.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = torch.tensor([1.0, 2.0, 1.0])  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    where = next(net.parameters()).device  # == device: "net (already on device)"
    X, y, class_weights = X.to(where), y.to(where), CLASS_WEIGHTS.to(where)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
