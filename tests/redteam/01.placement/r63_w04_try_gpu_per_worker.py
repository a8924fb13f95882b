# expect: fail uses try_gpu(i) for worker i, so workers past the last GPU land on the CPU instead of wrapping round
# hint: round.?robin|wrap|modul|cycle|in turn|cpu.*(gpu|cuda)|(gpu|cuda).*cpu|fall.?back|try_gpu
# Wrong: with two GPUs and five workers this gives [cuda:0, cuda:1, cpu, cpu, cpu]; the table wants
# [cuda:0, cuda:1, cuda:0, cuda:1, cuda:0]. Right only with 0 GPUs, or as many GPUs as workers.
import d2lgpu


def place_workers(n_workers):
    return [d2lgpu.try_gpu(i) for i in range(n_workers)]


answer = place_workers
