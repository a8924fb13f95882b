# expect: fail flattens the gradients with .view(-1) and copies back through .view(-1), which raises for a non-contiguous p.grad (a transposed or channels_last parameter's gradient follows its strides)
# hint: contiguous|view|stride|layout|transpos|channels.?last
# open: every case's gradients are contiguous (nn.Linear's), where .view(-1) works as reshape(-1) does; a non-contiguous gradient is outside the prompt's models
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.view(-1) for g in grads])  # one all-reduce for the whole model
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.view(-1).copy_(flat[offset:offset + g.numel()])
        offset += g.numel()


answer = average_gradients
