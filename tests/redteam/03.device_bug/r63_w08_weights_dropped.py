# expect: fail drops the class weights to avoid the mismatch: a different (unweighted) loss
# hint: class.?weight|weight|loss.{0,40}(differ|mismatch|wrong|reference)|same computation
# Wrong: the prompt says keep the class weights and the loss; removing weight= silences the
# device error but changes the loss and the gradients.
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y)  # the weights were what broke it
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
