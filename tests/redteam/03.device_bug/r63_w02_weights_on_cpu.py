# expect: fail the class weights are still made on the CPU (only the batch was moved)
# hint: class.?weight|weight|torch\.tensor|factory|made on the cpu|device=
# Wrong: the second bug of train_step_buggy is left: torch.tensor(CLASS_WEIGHTS) lives on the
# CPU and meets device logits inside cross_entropy.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
