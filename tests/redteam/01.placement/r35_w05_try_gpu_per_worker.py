# expect: fail Gives worker i try_gpu(i), so once the GPUs run out the remaining workers land on the CPU instead of wrapping round to cuda:0.
# hint: round.?robin|cpu|wrap|modulo|%|every GPU|evenly
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    return [d2lgpu.try_gpu(i) for i in range(n_workers)]


answer = place_workers
