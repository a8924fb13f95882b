# expect: fail checkpoint_sequential without use_reentrant=False runs the old reentrant checkpoint: when x needs no gradient, every checkpointed segment's parameters get no gradient
# hint: reentrant|use_reentrant|no grad|param\w*.{0,40}(grad|none|unchanged)|(grad|gradient)s? (is |are |was |were )?(none|missing|unchanged)|requires_grad
# Wrong: the chapter's first trap, met through its own helper's default. The last segment runs
# unchecked, so backward works and the output is right; only the earlier segments' weights lose their gradients
# (and only when x does not require grad: a kind test with x.requires_grad passes).
from torch.utils.checkpoint import checkpoint_sequential


def answer(blocks, x, segments):
    return checkpoint_sequential(list(blocks), segments, x)
