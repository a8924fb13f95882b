# expect: fail writes the weighted loss by hand as mean(w[y] * loss), dividing by the batch size instead of the sum of the weights
# hint: weight|mean|normali|reduction|sum of|loss (value|differ)|reference
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    per_example = F.cross_entropy(net(X), y, reduction="none")
    loss = (per_example * class_weights[y]).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
