# expect: pass float32 torch tensors: 7 digits, within the 6 the prompt's numbers need (judged right: test_bus_bandwidth_in_float32_tensors_passes)
# hint:
import torch


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    t = torch.tensor([nbytes, seconds, factors[collective]])  # float32
    algbw = t[0] / t[1] / 1e9
    busbw = algbw * t[2]
    return algbw.item(), busbw.item()


answer = bandwidths
