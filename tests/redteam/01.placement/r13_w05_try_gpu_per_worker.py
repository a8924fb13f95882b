# expect: fail try_gpu(i) per worker: workers past the last GPU fall back to the CPU instead of wrapping round
# hint: cpu|wrap|round.?robin|modulo|%|cycle|busy|idle|every (worker|gpu)|only GPUs|try_gpu|fall.?back
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    # try_gpu(i) gives GPU i when it exists, else the CPU: code that runs everywhere
    return [d2lgpu.try_gpu(i) for i in range(n_workers)]


answer = place_workers
