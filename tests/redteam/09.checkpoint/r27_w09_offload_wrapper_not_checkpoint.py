# expect: fail wraps each segment with torch.distributed's offload_wrapper, taking it for the sibling of checkpoint_wrapper: it keeps every block's activations (moved to pinned host memory) instead of recomputing them, so backward recomputes no segment and all of the activations are saved for backward; output and gradients are right
# hint: offload|save_on_cpu|pin|recomput|not checkpointed|no checkpoint|checkpoint_wrapper|host|saved|bytes|memory|activations
# name: checkpointed_forward
import torch
from torch import nn
from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import offload_wrapper


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        segment = offload_wrapper(nn.Sequential(*blocks[int(part[0]) : int(part[-1]) + 1]))
        h = segment(h)
    return h
