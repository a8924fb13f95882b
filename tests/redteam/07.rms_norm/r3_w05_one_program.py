# expect: fail one program for all rows
# hint: one program per row
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _k import make
answer = make(one_program=True)
