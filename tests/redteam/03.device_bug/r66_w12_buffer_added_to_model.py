# expect: fail it registers the class weights as a buffer on the caller's model: its state_dict gains a key that make_net() lacks
# hint: buffer|state_dict|register|model.{0,40}(changed|modified|attribute|key)|side.?effect
# Wrong: the step changes the model itself; a checkpoint saved from it no longer loads strictly
# into make_net() ("Unexpected key(s) in state_dict: class_weights"). The values are right.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    # "a constant a model needs is a buffer": it then moves with net.to(device)
    if "class_weights" not in dict(net.named_buffers()):
        net.register_buffer("class_weights", torch.tensor(CLASS_WEIGHTS, device=device))
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=net.class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
