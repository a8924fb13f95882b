# expect: fail puts every worker on cuda:0 when there is any GPU: the other GPUs stay idle
# hint: every GPU|all (the )?GPUs|busy|idle|round.?robin|cuda:1|only one|evenly
import torch


def place_workers(n_workers):
    """cuda if there is a GPU, else cpu, for every worker."""
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    return [device for _ in range(n_workers)]


answer = place_workers
