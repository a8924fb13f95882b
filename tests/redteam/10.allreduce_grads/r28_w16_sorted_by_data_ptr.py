# expect: fail reduces the gradients sorted by their memory address (data_ptr) to walk memory in order: addresses differ from rank to rank, so ranks can call all_reduce on different gradients in the same position (wrong sums, or a size mismatch and a hang) whenever the allocator places them differently.
# hint: (order|data_ptr|address|same order|sorted|different (tensor|gradient)s?|mismatch|rank.*differ)
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    grads.sort(key=lambda g: g.data_ptr())  # sequential memory access for the copies
    world = dist.get_world_size()
    for g in grads:
        dist.all_reduce(g)
        g.div_(world)
