# expect: fail the all-reduce factor uses floor division, 2 * (n - 1) // n, which is right for 1 and 2 ranks only (1 instead of 4/3 on 3 ranks, 1.5 on 4)
# hint: integer|floor|//|truncat|round(ed|s|ing)? (down|to)|more than (2|two)|[3-9] ranks|world.?size (of )?[3-9]|fraction
# Wrong: 2 * (n - 1) // n is 1 for every n >= 2; the prompt's factor 2 (n - 1) / n
# is 1 only for n = 2, so a 3-, 4- or 8-rank all-reduce gets too low a busbw.
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) // n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
