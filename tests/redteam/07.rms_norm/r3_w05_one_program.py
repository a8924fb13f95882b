# expect: fail one program for all rows
# hint: one program per row
import sys; sys.path.insert(0, "/tmp/redteam-graders/07.rms_norm")
from _k import make
answer = make(one_program=True)
