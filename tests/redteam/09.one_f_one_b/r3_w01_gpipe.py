# expect: fail every forward, then every backward (GPipe's order)
# hint: GPipe
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _sched import run
def answer(stages, x, y, loss_fn, n_micro):
    return run(stages, x, y, loss_fn, n_micro, lambda k, n, m: [("F", i) for i in range(m)] + [("B", i) for i in range(m)])
