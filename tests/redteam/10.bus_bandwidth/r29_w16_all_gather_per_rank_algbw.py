# expect: fail for all_gather it takes each rank's share, nbytes / n, as the buffer and multiplies by (n - 1): the busbw comes out right but algbw is n times too small (nbytes is the gathered result). Shows only for all_gather with n > 1.
# hint: algbw|all_gather|gathered|(per|each)[- ]rank|nbytes / (n|world_size)|divid(e|es|ed|ing) by (n|world_size|the number of ranks)|whole (result|buffer)
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    GB = 1e9
    if collective == "all_gather":
        shard = nbytes / n  # each rank contributes one slice and receives the n - 1 others
        algbw = shard / seconds / GB
        return algbw, algbw * (n - 1)
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective == "reduce_scatter":
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / GB
    return algbw, algbw * factor


answer = bandwidths
