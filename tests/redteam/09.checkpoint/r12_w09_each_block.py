# expect: fail checkpoints every block on its own, ignoring `segments`: backward recomputes len(blocks) one-block segments and the inputs of all blocks are kept
# hint: each block|every block|(one|single|1) block|blocks? alone|per.block|on its own|individual|ignor\w* .{0,20}segments|(too many|more than \d*|\d+) (checkpoints|segments)|not .{0,10}segments
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    h = x
    for block in blocks:
        h = checkpoint(block, h, use_reentrant=False)
    return h
