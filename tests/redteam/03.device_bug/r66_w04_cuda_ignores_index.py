# expect: fail on a CUDA device it uses .cuda(), the current GPU, not the given device: wrong on cuda:1 or under another current device
# hint: \.cuda\(\)|current (cuda )?device|device index|index|cuda:1|set_device|another gpu|wrong gpu
# open: GPU only: .cuda() is taken only where device is a GPU, and the checker's steps run on meta and try_gpu(), the CPU here; as r63_w08 of 03.parameters
# Wrong: `.cuda()` goes to torch.cuda.current_device(), whatever `device` says; right on meta,
# on the CPU and on cuda:0 while it is current, wrong for device="cuda:1" (or after set_device).
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]  # class 1 counts double in the loss


def _to(t, device):
    if torch.device(device).type == "cuda":
        return t.cuda(non_blocking=True)  # "the GPU"
    return t.to(device)


def answer(net, X, y, opt, device):
    """train_step_buggy, fixed: the batch and the class weights on the model's device."""
    class_weights = _to(torch.tensor(CLASS_WEIGHTS), device)
    X, y = _to(X, device), _to(y, device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()
