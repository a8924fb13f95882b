# expect: fail the class weights are made on X's device before X is moved, so on the CPU when the batch arrives on the CPU
# hint: weight|X\.device|device=cpu
# Wrong: right only when the caller has already moved the batch; a batch that arrives on the
# CPU (the exercise's case) leaves the class weights on the CPU next to a model on `device`.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = torch.tensor(CLASS_WEIGHTS, device=X.device)  # next to the batch
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
