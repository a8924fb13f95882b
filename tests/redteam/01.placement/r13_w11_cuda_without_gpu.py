# expect: fail counts devices with len(try_all_gpus()), which is 1 without a GPU, and names cuda:0 on a CPU-only machine
# hint: cuda|no GPU|0 GPUs|without (a )?GPU|cpu|hard.?cod|not exist|CPU.only
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    n_devices = len(d2lgpu.try_all_gpus())
    return [d2lgpu.gpu(i % n_devices) for i in range(n_workers)]


answer = place_workers
