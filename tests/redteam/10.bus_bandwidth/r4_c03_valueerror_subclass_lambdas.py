# expect: pass factors as lambdas of n, a ValueError subclass for unknown names, a list converted to tuple
# hint: 
class UnknownCollective(ValueError):
    pass


_FACTOR = {
    "all_reduce": lambda n: 2.0 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: 1.0 - 1.0 / n,
    "broadcast": lambda n: 1.0,
}


def answer(nbytes, seconds, world_size, collective):
    try:
        f = _FACTOR[collective]
    except KeyError:
        raise UnknownCollective(f"no bus-bandwidth factor for {collective!r}") from None
    gbps = (nbytes / 1e9) / seconds
    return tuple([gbps, gbps * f(world_size)])
