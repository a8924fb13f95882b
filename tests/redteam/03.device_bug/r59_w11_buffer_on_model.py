# expect: fail registers the class weights as a buffer on the caller's model inside the step, adding a "class_weights" entry to its buffers and state_dict
# hint: buffer|state_dict|register|model|side.?effect|modif
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    net.register_buffer("class_weights", torch.tensor(CLASS_WEIGHTS, device=device))
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=net.class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
