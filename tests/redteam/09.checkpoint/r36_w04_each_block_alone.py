# expect: fail checkpoints every block on its own, ignoring segments
# hint: each block|per block|every block|block alone|segment|one block
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    h = x
    for block in blocks:  # the finest segments there are
        h = checkpoint(block, h, use_reentrant=False)
    return h
