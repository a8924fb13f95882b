# expect: fail Wraps the forward and the loss in torch.autocast(bfloat16) on GPUs: not the same computation; the matmuls run in bfloat16, so the loss and the updated weights drift from the float32 reference by about 1e-2 relative, while a CPU run (no autocast there) matches exactly.
# hint: (autocast|bfloat16|bf16|mixed precision|precision|dtype|half|same computation)
# open: autocast is enabled only where device.type == "cuda"; the checker's stand-in for a GPU is the meta device, where the answer switches it off, and a CPU run matches the reference exactly
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=device.type == "cuda"):
        loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


answer = train_step
