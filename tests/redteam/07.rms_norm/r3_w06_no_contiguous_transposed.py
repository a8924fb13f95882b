# expect: fail a transposed x read with its row stride only (column stride ignored)
# hint: transposed.*stride\(1\)
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _k import make
answer = make(rows_from_shape=False)
