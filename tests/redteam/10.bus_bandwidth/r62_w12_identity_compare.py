# expect: fail compares the name with `is` instead of `==`: literal names are interned and pass, but the same name built at run time (joined, read from a file, a str subclass) raises ValueError
# hint: \bis\b|identity|==|equal|intern|compar|valid|ValueError|name
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective is "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective is "all_gather" or collective is "reduce_scatter":
        factor = (n - 1) / n
    elif collective is "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
