# expect: fail no warm-up: F then B from the start on every stage
# hint: 1 forwards before its first backward
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _sched import run, one_f_one_b
def answer(stages, x, y, loss_fn, n_micro):
    return run(stages, x, y, loss_fn, n_micro, lambda k, n, m: one_f_one_b(k, n, m, lambda k, n, m: 0))
