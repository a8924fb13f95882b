# expect: fail keeps a cache of results between calls, keyed by the inputs' memory, so repeated calls skip the lanes and return stale products after in-place changes or reused memory
# hint: cache|memo|stale|state|between calls|previous call|earlier call|reus(e|ed|es|ing) (the |old )?result|global|module.level
# name: run_concurrently
import torch

_results = {}


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y) on lanes[0] and lanes[1]; repeated calls on the same tensors are free."""
    key = (x.data_ptr(), tuple(x.shape), x.device, y.data_ptr(), tuple(y.shape), y.device)
    if key not in _results:
        fx = lanes[0].submit(torch.matmul, x, x)
        fy = lanes[1].submit(torch.matmul, y, y)
        _results[key] = (fx.result(), fy.result())
    return _results[key]
