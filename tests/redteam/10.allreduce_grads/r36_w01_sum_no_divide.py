# expect: fail sums the gradients over the ranks but never divides by the world size
# hint: (divid|world.?size|average|mean|sum(med)?\b|not.*averag|\bn\b times|twice|doubl)
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)  # all_reduce "averages" the gradients
