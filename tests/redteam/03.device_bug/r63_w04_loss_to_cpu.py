# expect: fail returns the loss copied to the CPU (.cpu()): a device-to-host copy and sync every step
# hint: cpu|host|sync|copy|wait|on (the )?device|returned
# Wrong: the prompt wants every tensor on device and the loss returned as a tensor so that the
# caller reads it once; .cpu() waits for the GPU every step, like .item() would.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach().cpu()  # "a tensor, not .item()"
