# expect: pass callable class using num_gpus(), torch.device("cuda", index) and a cpu fallback
# hint: 
import d2lgpu
import torch


class WorkerPlacer:
    """Round-robin placement; asks the machine on every call."""

    def __call__(self, n_workers):
        n_gpus = d2lgpu.num_gpus()
        placement = []
        for worker in range(n_workers):
            if n_gpus == 0:
                placement.append(torch.device("cpu"))
            else:
                placement.append(torch.device("cuda", worker % n_gpus))
        return placement


place_workers = WorkerPlacer()
answer = place_workers
