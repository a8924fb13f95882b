# expect: fail lambda made in the loop binds start/end late: backward recomputes the last segment's blocks
# hint: lambda|late.?bind|closure|loop variable|partial|recompute.*(wrong|other|last)|wrong blocks
import torch
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, end = int(part[0]), int(part[-1]) + 1

        def run(inp):
            for block in blocks[start:end]:
                inp = block(inp)
            return inp

        h = checkpoint(lambda inp: run(inp), h, use_reentrant=False)
    return h


answer = checkpointed_forward
