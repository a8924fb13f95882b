# expect: fail rows assumed n_cols apart
# hint: stride\(0\)
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _k import make
answer = make(rows_from_shape=True)
