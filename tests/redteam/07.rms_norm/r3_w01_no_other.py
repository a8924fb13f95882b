# expect: fail masked lanes loaded without other= add NaN
# hint: other=
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _k import make
answer = make(other=False)
