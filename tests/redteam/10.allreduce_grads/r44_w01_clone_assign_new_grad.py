# expect: pass judged right: the prompt asks for the average in p.grad and counts collectives, not a copy on the gradient's own device (as r21_c05 in 02.concurrency). Written as wrong: all-reduces a clone of each gradient and assigns p.grad = clone / world: right values, but two new tensors per gradient every step (a clone and the quotient) and p.grad replaced by a new tensor, so whoever held the old p.grad (zero_grad(set_to_none=False) keeps it) sees the un-averaged one.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        g = p.grad.clone()  # "don't touch autograd's tensor"
        dist.all_reduce(g)
        p.grad = g / world
