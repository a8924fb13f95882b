# expect: fail creates a new process group on every call: connections and groups grow with each step
# hint: group|grow|leak|each call|every call|new_group
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    group = dist.new_group(ranks=list(range(world)))  # the ranks that share this model
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, group=group)
            p.grad /= dist.get_world_size(group)
