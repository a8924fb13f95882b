# expect: fail warm-up of S - k forwards, one too many
# hint: 3 forwards before its first backward
import sys; sys.path.insert(0, "/tmp/redteam-graders/09.one_f_one_b")
from _sched import run, one_f_one_b
def answer(stages, x, y, loss_fn, n_micro):
    return run(stages, x, y, loss_fn, n_micro, lambda k, n, m: one_f_one_b(k, n, m, lambda k, n, m: min(n - k, m)))
