# expect: fail hard-codes two GPUs (i % 2) whenever there is a GPU: cuda:1 on a one-GPU machine, cuda:2 never used with three
# hint: hard.?cod|two GPUs|2 GPUs|one GPU|1 GPU|three|3 GPUs|number of GPUs|every GPU|all (the )?GPUs|cuda:1|cuda:2|not exist|count
import d2lgpu
import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    if d2lgpu.num_gpus() == 0:
        return [torch.device("cpu") for _ in range(n_workers)]
    return [torch.device(f"cuda:{i % 2}") for i in range(n_workers)]


answer = place_workers
