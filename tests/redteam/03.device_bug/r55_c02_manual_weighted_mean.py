# expect: pass weighted mean written out: log_softmax, gather, sum(w[y] * nll) / sum(w[y])
# hint:
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X = X.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    class_weights = torch.as_tensor(CLASS_WEIGHTS, dtype=torch.float32, device=device)
    log_p = F.log_softmax(net(X), dim=1)
    nll = -log_p.gather(1, y.unsqueeze(1)).squeeze(1)
    w = class_weights[y]
    loss = (w * nll).sum() / w.sum()  # what cross_entropy(weight=...) means by "mean"
    opt.zero_grad(set_to_none=False)
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
