# expect: fail the world size is a default argument fixed at 2 instead of dist.get_world_size(), so on three ranks the sum is divided by 2
# hint: world.?size|get_world_size|hard.?cod|(fixed|constant|literal).*\b2\b|/ ?2|two ranks|three ranks|3 ranks|number of ranks
# name: average_gradients
import torch.distributed as dist


def average_gradients(model, world_size=2):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world_size
