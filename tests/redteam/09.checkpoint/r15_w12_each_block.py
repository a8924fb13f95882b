# expect: fail checkpoints every block alone inside each segment: saves every block's input, recomputes one block at a time
# hint: each block|every block|per block|block alone|one block at a time|single block|bytes saved|saved for backward|too many (bytes|inputs)
import torch
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        for k in part.tolist():  # the segment's blocks, each under checkpoint
            h = checkpoint(blocks[k], h, use_reentrant=False)
    return h


answer = checkpointed_forward
