# expect: fail x made contiguous, then row stride used; squares and sums in float16 (no float32 upcast): wrong since round 19's float16 case, which the prompt now names
# hint: float16|float32|overflow
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _k import make
answer = make(contiguous=True)
