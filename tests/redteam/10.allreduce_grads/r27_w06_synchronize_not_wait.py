# expect: fail "waits" for the async all-reduces with handle.synchronize(), which only orders CUDA streams and is a no-op for CPU tensors: under gloo nothing blocks, no handle is waited on, and the division races the sums
# hint: synchroni[sz]e|no-?op|\bnop\b|(not|never|without)\b.{0,40}(wait|block)|wait.{0,40}(never|not)\b|race
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    pending = []
    for p in model.parameters():
        if p.grad is not None:
            pending.append((dist.all_reduce(p.grad, async_op=True), p.grad))
    world = dist.get_world_size()
    for work, grad in pending:
        work.synchronize()  # like torch.cuda.synchronize(): returns once the sum is there
        grad.div_(world)
