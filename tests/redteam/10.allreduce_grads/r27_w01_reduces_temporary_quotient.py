# expect: fail all-reduces the temporary `p.grad / world` instead of p.grad itself: the sum lands in a new tensor that is thrown away, so every p.grad keeps this rank's local gradient
# hint: temporar|new tensor|out.of.place|(not|never) (written|copied|stored)|thrown away|discard|(result|sum) (is )?lost|p\.grad\s*/|local grad|unchanged|not averaged
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        # divide first, so that the sum over the ranks is already the average
        dist.all_reduce(p.grad / world)
