# expect: fail allocates a Python bytearray of nbytes (not a torch tensor) to count the buffer's bytes: the prompt says allocate nothing
# hint: alloc|buffer|bytearray|memoryview|memory|arithmetic|peak
# Wrong: same rule as the prompt's "no buffer of nbytes to count its bytes", broken with
# host memory outside torch's allocator (zero-filled, nbytes of it, on every call).
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    size = memoryview(bytearray(nbytes)).nbytes
    algbw = size / seconds / 1e9
    return algbw, algbw * factors[collective]
