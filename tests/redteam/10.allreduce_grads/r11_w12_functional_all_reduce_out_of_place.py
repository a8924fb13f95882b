# expect: fail uses torch.distributed.nn.functional.all_reduce, the autograd version, which returns a new reduced tensor and leaves its input unchanged; the result is discarded, so p.grad is only divided by the world size
# hint: nn\.functional|functional|out.of.place|returns? a (new|reduced)|not in.?place|in place|return value|discard|result.*(unused|ignored)
# name: average_gradients
import torch.distributed as dist
from torch.distributed.nn.functional import all_reduce


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        all_reduce(p.grad)
        p.grad /= world
