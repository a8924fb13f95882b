# expect: fail all-reduces p.grad.contiguous(): for a non-contiguous gradient (channels_last conv, transposed weight) that is a copy, so the sum never reaches p.grad
# hint: contiguous|layout|stride|channels.last|copy
# open: every case's gradients are contiguous (nn.Linear's), where .contiguous() returns p.grad itself; a transposed parameter was tried and taken out, as it failed two right answers of earlier rounds (r23_c01_parameters_to_vector, r44_c01, whose view(-1) needs a contiguous gradient), as r23_w09 is kept open
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Sum each gradient over the ranks in place, then divide by the world size."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        # gloo wants dense, contiguous tensors: .contiguous() is free when p.grad already is
        dist.all_reduce(p.grad.contiguous())
        p.grad.div_(world)


answer = average_gradients
