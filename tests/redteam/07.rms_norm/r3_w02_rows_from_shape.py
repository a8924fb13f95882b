# expect: fail rows assumed n_cols apart
# hint: stride\(0\)
import sys; sys.path.insert(0, "/tmp/redteam-graders/07.rms_norm")
from _k import make
answer = make(rows_from_shape=True)
