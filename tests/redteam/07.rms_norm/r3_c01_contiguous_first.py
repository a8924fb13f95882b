# expect: pass x made contiguous, then row stride used
# hint: 
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _k import make
answer = make(contiguous=True)
