# expect: pass x made contiguous, then row stride used
# hint: 
import sys; sys.path.insert(0, "/tmp/redteam-graders/07.rms_norm")
from _k import make
answer = make(contiguous=True)
