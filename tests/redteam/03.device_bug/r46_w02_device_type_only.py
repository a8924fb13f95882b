# expect: fail class weights go to device.type (the current GPU), not to device: wrong GPU for cuda:1
# hint: index|cuda:1|device\.type|current (GPU|device)|cuda:0|wrong (GPU|device)|weight|batch
# open: only a machine with two or more GPUs tells device.type ("cuda", the current GPU) from the device given (cuda:1); the checker runs on meta, whose tensors carry no index, and on one try_gpu()
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss

def train_step(net, X, y, opt, device):
    kind = torch.device(device).type  # "cuda", "cpu" or "meta"
    X, y = X.to(kind), y.to(kind)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=kind)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
