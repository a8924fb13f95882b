# expect: pass judged right: the prompt asks for the average in p.grad and counts collectives, not a copy on the gradient's own device (as r21_c05 in 02.concurrency). Written as wrong: sums in place but divides out of place (p.grad = p.grad / world): a new gradient tensor allocated every step, and the tensor that was p.grad (kept by zero_grad(set_to_none=False) and by any reference) is left holding the sum, not the average.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad = p.grad / world
