# expect: fail each loss weighted 1 / M instead of its share of the rows
# hint: share of the batch's rows
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _sched import run, one_f_one_b
def answer(stages, x, y, loss_fn, n_micro):
    m = min(n_micro, len(x))
    return run(stages, x, y, loss_fn, n_micro, one_f_one_b, weigh=lambda i: 1 / m)
