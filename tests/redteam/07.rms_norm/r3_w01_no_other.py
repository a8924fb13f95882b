# expect: fail masked lanes loaded without other= add NaN
# hint: other=
import sys; sys.path.insert(0, "/tmp/redteam-graders/07.rms_norm")
from _k import make
answer = make(other=False)
