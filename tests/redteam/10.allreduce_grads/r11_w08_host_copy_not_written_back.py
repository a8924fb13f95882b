# expect: fail reduces `p.grad.cpu()` and divides that, never copying it back into p.grad; on a CPU tensor .cpu() returns the same tensor so it happens to work, on a GPU the gradient is left unchanged
# hint: \.cpu\(\)|\bcpu\b|host|copy|written back|write.*back|device
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        g = p.grad.cpu()  # gloo reduces host tensors
        dist.all_reduce(g)
        g /= world
