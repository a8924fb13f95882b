# expect: fail checkpoints every block alone, ignoring `segments`
# hint: segment|each block|alone|one block
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    h = x
    for block in blocks:
        h = checkpoint(block, h, use_reentrant=False)
    return h


answer = checkpointed_forward
