# expect: fail all-reduces p.grad.float() "for accuracy" and divides that in place without copying it back: for float32 gradients .float() is p.grad itself, so it works, but a bfloat16, float16 or float64 gradient is a copy and stays this rank's own
# hint: float\(\)|copy|written back|write.?back|dtype|bfloat16|float16|float64|half|not averaged|unchanged|own gradient
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        g = p.grad.float()  # sum in float32 even for half-precision gradients
        dist.all_reduce(g)
        g.div_(world)


answer = average_gradients
