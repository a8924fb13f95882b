# expect: fail weights applied by hand, (w[y] * ce).mean() divides by N instead of the sum of the weights
# hint: weighted|mean|normali|reduction|sum of|class.?weights?|loss.{0,40}(differ|value|reference)
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    per_example = F.cross_entropy(net(X), y, reduction="none")
    loss = (class_weights[y] * per_example).mean()  # class 1 counts double
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
