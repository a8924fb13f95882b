# expect: fail with one GPU, keeps workers on the CPU ("one GPU is not worth it")
# hint: with 1 GPU\(s\) every worker went to the CPU.*(lone GPU|one GPU is a device)
import torch
def answer(n_workers):
    n = torch.cuda.device_count()
    if n < 2:
        return ["cpu"] * n_workers
    return [f"cuda:{i % n}" for i in range(n_workers)]
