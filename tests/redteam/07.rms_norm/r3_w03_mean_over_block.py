# expect: fail mean over the block instead of n_cols
# hint: block size
import sys; sys.path.insert(0, "/tmp/redteam-graders/07.rms_norm")
from _k import make
answer = make(mean_over_block=True)
