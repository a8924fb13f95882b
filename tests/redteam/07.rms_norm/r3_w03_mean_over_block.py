# expect: fail mean over the block instead of n_cols
# hint: block size
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _k import make
answer = make(mean_over_block=True)
