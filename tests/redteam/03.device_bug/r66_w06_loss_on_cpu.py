# expect: fail the forward runs on device but the loss is computed on the CPU: logits copied to the host every step, loss returned on the CPU
# hint: cpu|host|cop(y|ies)|sync|loss.{0,40}device|device.{0,40}loss
# Wrong: "every tensor on device" is broken for the logits' copy, the labels, the class weights
# and the loss; each step copies device->host and waits. Values and gradients are right.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    logits = net(X.to(device))
    # the labels and the weights are on the CPU: compute the loss there, backward flows back
    loss = F.cross_entropy(logits.cpu(), y.cpu(), weight=torch.tensor(CLASS_WEIGHTS))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
