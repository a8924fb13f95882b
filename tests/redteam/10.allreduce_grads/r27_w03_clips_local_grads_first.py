# expect: fail clips each rank's local gradients (clip_grad_norm_, max_norm=5) before averaging: whenever a rank's gradient norm exceeds 5 the result is no longer the average of the ranks' gradients (and differs from one process on the whole batch); small gradients hide it
# hint: clip|norm|max_norm|rescal|(scal|shrink)\w* (the )?grad|before (averag|the all.?reduce)|local(ly)? .{0,30}(clip|scal)
# name: average_gradients
import torch
import torch.distributed as dist
from torch.nn.utils import clip_grad_norm_


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    params = [p for p in model.parameters() if p.grad is not None]
    # guard the all-reduce against one rank's exploding gradient
    clip_grad_norm_(params, max_norm=5.0)
    world = dist.get_world_size()
    for p in params:
        dist.all_reduce(p.grad)
        p.grad.div_(world)
