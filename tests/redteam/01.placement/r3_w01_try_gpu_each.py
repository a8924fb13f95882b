# expect: fail try_gpu(i) per worker falls back to the CPU past the last GPU
# hint: try_gpu\(i\) falls back to the CPU
import d2lgpu
def answer(n_workers):
    return [d2lgpu.try_gpu(i) for i in range(n_workers)]
