# expect: fail walks set(model.parameters()) to skip tied weights twice: a set's order follows the tensors' hashes (their ids, memory addresses), which differ from rank to rank, so the ranks can call the all-reduces in different orders and sum unrelated gradients (or hang)
# hint: set|order|same order|hash|id\b|address|deterministic|mismatch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    # a set, so that a weight shared by two layers is averaged only once
    for p in set(model.parameters()):
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
