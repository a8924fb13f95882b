# expect: fail returns device names as strings ('cuda:0') instead of torch.device objects
# hint: (torch\.device|str|string|type)
# name: place_workers
import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [str(devices[i % len(devices)]) for i in range(n_workers)]
