# expect: fail checkpoints every block on its own and ignores segments, so backward recomputes len(blocks) one-block segments and keeps every block's input instead of the segments'
# hint: each block|block alone|segment|one block
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for block in blocks:  # the finest segments there are
        h = checkpoint(block, h, use_reentrant=False)
    return h
