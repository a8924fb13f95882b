# expect: fail it "fixes" the mismatch by moving the model to the batch's device (the CPU) for the step and back afterwards
# hint: (model|net|param|module|weight).{0,60}(cpu|host|mov)|(cpu|host|mov).{0,60}(model|net|param|module)
# Wrong: the step runs on the CPU, not on `device`; everything is put back on `device` before
# returning, so the parameters end where they started and the values agree (on a CPU even exactly).
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    home = next(net.parameters()).device
    net.to(X.device)  # the model goes where the batch is: no more mismatch
    class_weights = torch.tensor(CLASS_WEIGHTS, device=X.device)
    loss = F.cross_entropy(net(X), y.to(X.device), weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    net.to(home)  # and back where the caller had it
    return loss.detach().to(home)
