# expect: fail divides by num_gpus() with no CPU fallback, so a machine without a GPU raises ZeroDivisionError
# hint: (no GPU|without a GPU|cpu|ZeroDivision|0 GPU|zero)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    n = d2lgpu.num_gpus()
    return [d2lgpu.gpu(i % n) for i in range(n_workers)]
