# expect: fail uses only try_gpu() (the first GPU) for every worker, leaving the other GPUs idle
# hint: (every GPU|all (the )?GPUs|busy|idle|try_all_gpus|cuda:1|round.?robin)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    return [d2lgpu.try_gpu() for _ in range(n_workers)]
