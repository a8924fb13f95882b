# expect: pass functools.partial over a unit-generic helper, with the ring factors as lambdas of n in a dict
# hint:
import functools

_FACTORS = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}


def _bandwidths(nbytes, seconds, world_size, collective, *, unit):
    try:
        factor = _FACTORS[collective](world_size)
    except (KeyError, TypeError):
        raise ValueError(f"unknown collective {collective!r}; expected one of {sorted(_FACTORS)}") from None
    algbw = nbytes / seconds / unit
    return (algbw, algbw * factor)


answer = functools.partial(_bandwidths, unit=1e9)
