# expect: fail runs the model forward a second time each step to log accuracy (on the device), doubling the forward cost
# hint: forward.{0,30}(twice|two|again|extra|second)|twice|extra (forward|work|pass)|accuracy|once|repeated
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss
ACCURACY = []  # kept on the device; read once at the end


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    with torch.no_grad():
        ACCURACY.append((net(X).argmax(dim=1) == y).float().mean())
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
