# expect: pass Clears the gradients after opt.step() instead of before backward(): the kept test test_device_bug_steps_written_in_other_orders_pass holds this order right (the gradients are cleared for the next step).
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    loss.backward()
    opt.step()
    opt.zero_grad()  # leave clean gradients for the next step
    return loss.detach()


answer = train_step
