# expect: fail mse_loss written in instead of loss_fn
# hint: loss_fn you were given
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).parent / "helpers"))
import torch.nn.functional as F
from _sched import run, one_f_one_b
def answer(stages, x, y, loss_fn, n_micro):
    return run(stages, x, y, F.mse_loss, n_micro, one_f_one_b)
