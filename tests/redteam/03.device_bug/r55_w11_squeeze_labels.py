# expect: fail y.squeeze() on the labels: a batch of one becomes a 0-dim target and the step fails
# hint: batch|squeeze|one|size|shape|target
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X = X.to(device)
    y = y.to(device).squeeze()  # labels as a flat vector, whatever shape they arrive in
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
