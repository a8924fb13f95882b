# expect: fail it runs the forward pass twice per step (once for a device assertion, once for the loss)
# hint: forward|twice|extra|recomput|redundant|duplicat|more (op|call|kernel)
# Wrong: not the same computation: every step does a second forward (and keeps an unused graph
# alive until it returns). The loss, the gradients and the update are right.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = X.to(device), y.to(device)
    out = net(X)
    assert out.device == y.device == class_weights.device, "device mismatch"
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
