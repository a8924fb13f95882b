# expect: fail every worker on try_gpu() (cuda:0), leaving the other GPUs idle
# hint: every GPU|all (the )?GPUs|busy|idle|unused|only (one|the first)|cuda:0|spread|round.?robin|share|evenly|cuda:1
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    device = d2lgpu.try_gpu()  # the best device there is, or the CPU
    return [device] * n_workers


answer = place_workers
