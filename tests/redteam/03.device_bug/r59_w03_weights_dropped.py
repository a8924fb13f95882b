# expect: fail "fixes" the CPU class weights by dropping them: an unweighted loss, not the same computation
# hint: class.?weight|weight|loss (value|differ)|reference
import torch.nn.functional as F


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch on the model's device."""
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
