# expect: fail eps written in
# hint: eps you are given
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _k import make
answer = make(eps_fixed=1e-6)
