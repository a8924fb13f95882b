# expect: fail X.to(device) and y.to(device) are called but not assigned: the batch stays on the CPU
# hint: assign|not in place|returns? a (new|copy)|new tensor|x\s*=\s*x\.to|(batch|\bX\b|\by\b).{0,40}(cpu|not moved|still)
# Wrong: a tensor's .to() returns a new tensor (chapter 3.1); unlike net.to(device) it does
# not move the tensor in place, so X and y are still on the CPU.
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    X.to(device)
    y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
