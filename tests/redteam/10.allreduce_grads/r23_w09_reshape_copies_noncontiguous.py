# expect: fail all-reduces p.grad.reshape(-1), which is a view only for a contiguous grad: a grad with other strides (a channels_last conv weight, a transposed parameter) gets a copy, which is averaged and thrown away while p.grad keeps the local gradient
# hint: contiguous|stride|reshape|view|copy|channels.?last|memory.?format|layout|written back
# open: every case's gradients are contiguous (nn.Linear's), where reshape(-1) is a view: only a non-contiguous gradient (channels_last, a transposed weight) tells it apart
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    with torch.no_grad():
        for p in model.parameters():
            if p.grad is None:
                continue
            flat = p.grad.reshape(-1)  # 1-D, as the buckets are; shares p.grad's memory
            dist.all_reduce(flat)
            flat /= world
