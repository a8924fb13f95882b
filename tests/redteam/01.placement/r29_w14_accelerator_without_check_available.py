# expect: fail asks torch.accelerator.current_accelerator() without check_available=True, which names the accelerator torch was BUILT for: on a machine with a CUDA build and no GPU it places every worker on cuda:0 instead of the CPU.
# hint: (no gpu|without (a )?gpu|0 gpus?|zero gpus?|cpu (only|expected|machine)|check_available|built for|current_accelerator|cuda build|laptop|expected .?cpu)
import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the machine's accelerators."""
    accelerator = torch.accelerator.current_accelerator()  # device-generic, chapter 1.7
    if accelerator is None:
        devices = [torch.device("cpu")]
    else:
        count = max(1, torch.accelerator.device_count())
        devices = [torch.device(accelerator.type, i) for i in range(count)]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
