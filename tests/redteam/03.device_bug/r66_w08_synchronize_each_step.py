# expect: fail it calls torch.cuda.synchronize() at the end of every step, making the CPU wait for the GPU each step
# hint: sync|wait|block|stall
# open: the wait is taken only where device is a GPU; the checker's steps run on meta and try_gpu() (the CPU here), and no rule of this exercise counts waits
# Wrong: the point of returning a tensor (not .item()) is that the step does not wait for the GPU;
# an explicit synchronize every step costs the same wait. Values are right; on CPU/meta it does nothing.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    device = torch.device(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    X, y = X.to(device), y.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if device.type == "cuda":
        torch.cuda.synchronize(device)  # make sure the step is done before handing back its loss
    return loss.detach()
