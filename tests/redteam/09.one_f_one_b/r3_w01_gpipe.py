# expect: fail every forward, then every backward (GPipe's order)
# hint: GPipe
import sys; sys.path.insert(0, "/tmp/redteam-graders/09.one_f_one_b")
from _sched import run
def answer(stages, x, y, loss_fn, n_micro):
    return run(stages, x, y, loss_fn, n_micro, lambda k, n, m: [("F", i) for i in range(m)] + [("B", i) for i in range(m)])
