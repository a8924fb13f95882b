# expect: fail Pins each batch inside the step (X.pin_memory()) before a non_blocking copy: the values are right, but pinning a pageable batch is one more host copy (and a page-locked allocation) every step, paid for a copy that nothing overlaps with; the pinning belongs in the DataLoader.
# hint: (pin|page.?locked|non_blocking|host copy|extra copy|dataloader)
# open: the pinning runs only where device.type == "cuda"; the checker's stand-in for a GPU is the meta device, and this machine has no CUDA device to pass
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    if torch.cuda.is_available() and device.type == "cuda":
        X, y = X.pin_memory(), y.pin_memory()  # pinned: the copy can be asynchronous
    X = X.to(device, non_blocking=True)
    y = y.to(device, non_blocking=True)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
