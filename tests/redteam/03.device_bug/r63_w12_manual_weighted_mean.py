# expect: fail class weights applied by hand with .mean(): divides by the batch size, not by the sum of the weights
# hint: weight|mean|normali[sz]|divid|sum of (the )?weights|reduction|loss.{0,30}(differ|value|reference)
# Wrong: cross_entropy(weight=w) averages as sum(w[y] * l) / sum(w[y]); this divides by len(y),
# so the loss (and the gradient) differs whenever the batch's weights do not average to one.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    per_example = F.cross_entropy(net(X), y, reduction="none")
    loss = (per_example * class_weights[y]).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
