# expect: fail moves tensors only when torch.cuda.is_available(), so any other device (meta, a non-CUDA accelerator) gets CPU tensors
# hint: batch|\bX\b|input|weight|meta|is_available|cuda|device
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    class_weights = torch.tensor(CLASS_WEIGHTS)
    if torch.cuda.is_available():  # on a CPU-only machine everything is already on the CPU
        X, y, class_weights = X.to(device), y.to(device), class_weights.to(device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
