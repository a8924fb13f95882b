# expect: fail zeroes the stages' gradients first
# hint: zeroed them
import sys; sys.path.insert(0, "/tmp/redteam-graders/09.one_f_one_b")
from _sched import run, one_f_one_b
def answer(stages, x, y, loss_fn, n_micro):
    return run(stages, x, y, loss_fn, n_micro, one_f_one_b, zero=True)
