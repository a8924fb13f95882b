# expect: fail returns device strings like "cuda:0" instead of torch.device objects
# hint: torch\.device|str|type
import d2lgpu


def place_workers(n_workers):
    devs = [str(d) for d in d2lgpu.try_all_gpus()]
    return [devs[i % len(devs)] for i in range(n_workers)]


answer = place_workers
