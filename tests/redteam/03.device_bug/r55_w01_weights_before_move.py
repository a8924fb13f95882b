# expect: fail class weights moved to X.device before X itself was moved (they stay on the CPU)
# hint: class.?weight|weight|cpu|device|same device
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    # put the weights wherever the data lives...
    class_weights = torch.tensor(CLASS_WEIGHTS).to(X.device)
    # ...then move the data (too late: X.device above was still the CPU)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
