# expect: pass busbw from the bytes each rank receives (slices of the buffer), then both divided by the time and 10**9
# hint: 
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    slice_bytes = nbytes / n
    received = {  # bytes one rank's link carries in a ring, per collective
        "all_gather": (n - 1) * slice_bytes,  # the n - 1 slices it lacks
        "reduce_scatter": (n - 1) * slice_bytes,  # the same traffic, the other way
        "all_reduce": 2 * (n - 1) * slice_bytes,  # one of each
        "broadcast": nbytes,  # the whole buffer crosses each link once
    }
    if collective not in received:
        raise ValueError(
            "collective must be one of " + ", ".join(sorted(received)) + f"; got {collective!r}"
        )
    to_gb_per_s = 1 / (seconds * 10**9)
    return nbytes * to_gb_per_s, received[collective] * to_gb_per_s


answer = bandwidths
