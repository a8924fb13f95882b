# expect: pass numpy arithmetic (returns numpy float64s) with a tuple unpack at the call site
# hint: 
# name: bandwidths
import numpy as np


def bandwidths(nbytes, seconds, world_size, collective):
    factors = {
        "all_reduce": 2.0 * (world_size - 1) / world_size,
        "all_gather": (world_size - 1) / world_size,
        "reduce_scatter": (world_size - 1) / world_size,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unsupported collective: {collective}")
    algbw = np.float64(nbytes) / np.float64(seconds) / np.float64(1e9)
    busbw = algbw * np.float64(factors[collective])
    return algbw, busbw
