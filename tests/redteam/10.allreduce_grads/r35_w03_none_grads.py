# expect: fail does not skip parameters whose grad is None, so the step with an unused layer crashes (all_reduce of None).
# hint: none|unused|no grad|without
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    world = dist.get_world_size()
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad.div_(world)


answer = average_gradients
