# expect: fail switches torch's default dtype to float64 and puts it back only on the normal path: an unknown collective raises ValueError and leaves the process in float64
# hint: default.?dtype|set_default_dtype|float64|double|process.?wide|setting|put (it )?back|restor|left changed
# Wrong: the exercises' rules say to put back any process-wide setting you change; the
# ValueError path returns before torch.set_default_dtype(old) runs (no try/finally).
import torch


def answer(nbytes, seconds, world_size, collective):
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)  # full precision for the ratios
    n = torch.tensor(world_size)
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": torch.tensor(1.0),
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    factor = float(factors[collective])
    torch.set_default_dtype(old)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
