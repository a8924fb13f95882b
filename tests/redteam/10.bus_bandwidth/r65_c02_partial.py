# expect: pass
# hint:
# Right: functools.partial fixes the unit and the factor table of a general function;
# the four arguments keep the prompt's order. The chapter's GB constant (1e9) is the unit.
import functools

from d2lgpu.collectives import GB

FACTORS = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1,
}


def _bandwidths(nbytes, seconds, world_size, collective, *, unit, factors):
    try:
        factor = factors[collective]
    except (KeyError, TypeError):
        raise ValueError(f"unknown collective {collective!r}") from None
    algbw = nbytes / seconds / unit
    return algbw, algbw * factor(world_size)


answer = functools.partial(_bandwidths, unit=GB, factors=FACTORS)
