# expect: pass computes bytes-per-second first and converts both to GB/s at the end, with a module-level table of (numerator, doubled) pairs
# hint: 
_DOUBLE = {"all_reduce": True, "all_gather": False, "reduce_scatter": False}


def bandwidths(nbytes, seconds, world_size, collective):
    bytes_per_s = nbytes / seconds
    if collective == "broadcast":
        bus_per_s = bytes_per_s
    elif collective in _DOUBLE:
        mult = 2 if _DOUBLE[collective] else 1
        bus_per_s = bytes_per_s * mult * (world_size - 1) / world_size
    else:
        raise ValueError("unsupported collective: " + str(collective))
    GB = 1_000_000_000
    return bytes_per_s / GB, bus_per_s / GB

answer = bandwidths
