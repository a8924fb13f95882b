# expect: fail checkpoint_sequential with use_reentrant left out (reentrant)
# hint: use_reentrant
import warnings
from torch.utils.checkpoint import checkpoint_sequential
def answer(blocks, x, segments):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return checkpoint_sequential(list(blocks), segments, x)
