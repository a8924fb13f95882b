# expect: fail moves the batch and makes the weights on device only when device.type == "cuda"; any other device (meta here) gets CPU tensors
# hint: meta|cuda|device|cpu|batch|weight
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    on_gpu = torch.device(device).type == "cuda"
    if on_gpu:  # a CPU run needs no copies
        X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device if on_gpu else "cpu")
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
