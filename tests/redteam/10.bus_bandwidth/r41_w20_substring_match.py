# expect: fail matches by substring: 'reduce' in collective is tested first, so reduce_scatter gets the all-reduce factor
# hint: (reduce_scatter|reduce-scatter|factor|\(n ?- ?1\) ?/ ?n)
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    name = collective.lower()
    if "reduce" in name:
        factor = 2 * (n - 1) / n
    elif "gather" in name or "scatter" in name:
        factor = (n - 1) / n
    elif "broadcast" in name:
        factor = 1.0
    else:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
