# expect: fail class weights put on X.device, read before X is moved: on the CPU when the batch arrives on the CPU
# hint: class.?weight|weight|x\.device|before.{0,30}mov|batch.{0,20}device|arriv
# Wrong: passes only when the batch is already on device; when it arrives on the CPU (the case
# of the exercise) the weights are made on the CPU and meet device logits.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = torch.tensor(CLASS_WEIGHTS, device=X.device)  # "next to the data"
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
