# expect: fail without a GPU it returns torch.device("cpu", 0), i.e. cpu:0, which is not equal to torch.device("cpu")
# hint: cpu:0|cpu.{0,30}index|index.{0,30}cpu|no gpu|0 gpus?|zero gpus?|without (a )?gpu|torch\.device\(.cpu.\)
import d2lgpu
import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the machine's devices."""
    n_gpus = d2lgpu.num_gpus()
    kind = "cuda" if n_gpus else "cpu"
    slots = max(n_gpus, 1)  # the CPU counts as one slot
    return [torch.device(kind, worker % slots) for worker in range(n_workers)]


answer = place_workers
