# expect: fail the labels y are left on the CPU: only X is moved to device
# hint: \by\b|label|target|class ind
# Wrong: cross_entropy gets logits on device and targets on the CPU; on a GPU (or meta)
# that is a device mismatch. Only half of the batch was fixed.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X = X.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
