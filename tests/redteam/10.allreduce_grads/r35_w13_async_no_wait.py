# expect: fail launches every all_reduce with async_op=True and divides without waiting on the handles, so it divides (and returns) while the sums may still be in flight.
# hint: wait|async|handle|complete|finish
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    handles = []
    for p in model.parameters():
        if p.grad is not None:
            handles.append(dist.all_reduce(p.grad, async_op=True))
            p.grad /= world  # overlap the division with the next transfer


answer = average_gradients
