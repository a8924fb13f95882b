# expect: fail eps written in
# hint: eps you are given
import sys; sys.path.insert(0, "/tmp/redteam-graders/07.rms_norm")
from _k import make
answer = make(eps_fixed=1e-6)
