# expect: fail a NaN guard reads the loss on the host (bool of a device tensor) every step: a sync point
# hint: sync|bool|host|item|read|isfinite|nan|wait|data.?dependent|control flow
# Wrong: `if not torch.isfinite(loss)` turns a device tensor into a Python bool: the CPU waits
# for the GPU every step (and on meta there is no value to read), the cost the prompt forbids.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    if not torch.isfinite(loss):  # defensive: never step on a NaN loss
        raise FloatingPointError("loss is not finite")
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
