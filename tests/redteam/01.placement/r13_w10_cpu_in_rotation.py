# expect: fail puts the CPU into the rotation beside the GPUs (cpu, cuda:0, cuda:1, ...)
# hint: cpu|only (the )?GPUs|GPUs only|extra device|includ|not a GPU|order|first (worker|device)|cuda:0 first
import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = [d2lgpu.cpu()]  # the CPU is always there, and it can do work too
    devices += [d2lgpu.gpu(i) for i in range(d2lgpu.num_gpus())]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
