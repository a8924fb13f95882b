# expect: fail a transposed x read with its row stride only (column stride ignored)
# hint: transposed.*stride\(1\)
import sys; sys.path.insert(0, "/tmp/redteam-graders/07.rms_norm")
from _k import make
answer = make(rows_from_shape=False)
