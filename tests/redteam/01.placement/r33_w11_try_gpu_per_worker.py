# expect: fail uses try_gpu(i) for worker i, so workers beyond the GPU count fall back to the CPU instead of wrapping round
# hint: cpu|round.?robin|wrap|every GPU|busy|cuda:0
import d2lgpu


def place_workers(n_workers):
    return [d2lgpu.try_gpu(i) for i in range(n_workers)]


answer = place_workers
