# expect: fail the graph is not cut between stages: the last stage's backward runs every stage's at once
# hint: graph is not cut
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from _sched import run, one_f_one_b
def answer(stages, x, y, loss_fn, n_micro):
    return run(stages, x, y, loss_fn, n_micro, one_f_one_b, cut=False)
