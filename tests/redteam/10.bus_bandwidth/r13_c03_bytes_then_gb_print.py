# expect: pass bytes/s first, converted to GB/s at the end, with a print
# hint: 
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    valid = ("all_reduce", "all_gather", "reduce_scatter", "broadcast")
    if collective not in valid:
        raise ValueError(f"{collective!r} is not one of {valid}")
    n = world_size
    per_link = 1.0 if collective == "broadcast" else (n - 1) / n
    if collective == "all_reduce":
        per_link *= 2  # a reduce-scatter then an all-gather
    alg_bytes_per_s = nbytes / seconds
    bus_bytes_per_s = alg_bytes_per_s * per_link
    algbw, busbw = alg_bytes_per_s / 1e9, bus_bytes_per_s / 1e9
    print(f"{collective} x{n}: {nbytes} B in {seconds:g} s -> algbw {algbw:.3f}, busbw {busbw:.3f} GB/s")
    return algbw, busbw


answer = bandwidths
