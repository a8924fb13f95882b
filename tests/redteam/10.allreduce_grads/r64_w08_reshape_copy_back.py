# expect: fail copies the averages back through p.grad.reshape(-1).copy_(...), which for a non-contiguous gradient writes into a temporary copy and leaves p.grad unaveraged
# hint: contiguous|stride|layout|transpos|reshape|copy back|temporary|not (written|averaged)|view
# open: as r48_w02: every case's gradients are contiguous (nn.Linear's), where reshape(-1) is a view; a transposed parameter was tried and taken out, as it failed two right answers of earlier rounds
# Wrong: a parameter with non-contiguous strides (a transposed or sliced weight) gets a gradient
# of the same strides; reshape(-1) of it is a new tensor, so the copy_ lands there and p.grad
# keeps this rank's own gradient. Right for contiguous gradients only.
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for g, part in zip(grads, flat.split([g.numel() for g in grads]), strict=True):
        g.reshape(-1).copy_(part)
