# expect: fail defines each segment's function in the loop (a nested def reading start and end from the enclosing scope), so backward, after the loop, recomputes the last segment's blocks for every segment
# hint: lambda|late.?bind|closure|loop variable|partial|after the loop|wrong blocks|recomput\w* (the )?(wrong|last)|default argument
# name: checkpointed_forward
import torch
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, end = int(part[0]), int(part[-1]) + 1

        def segment(inp):
            for block in blocks[start:end]:
                inp = block(inp)
            return inp

        h = checkpoint(segment, h, use_reentrant=False)
    return h
