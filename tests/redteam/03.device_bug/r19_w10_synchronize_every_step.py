# expect: fail calls torch.cuda.synchronize() every step "to be safe" after the non_blocking copies: an extra wait on a GPU, invisible on the CPU
# hint: synchron|sync|wait|non_blocking
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X = X.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    if torch.cuda.is_available():
        torch.cuda.synchronize()  # make sure the copies have landed
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
