# expect: fail only rank 0 divides by the world size; the other ranks keep the sum
# hint: rank 1 \(step 0\) is summed|rank 0|rank zero|every rank|all ranks|each rank|other ranks|ranks? (differ|disagree)|same on (every|all)|only one rank
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        if dist.get_rank() == 0:  # the sum arrives on every rank; the main rank makes it the average
            p.grad /= world


answer = average_gradients
