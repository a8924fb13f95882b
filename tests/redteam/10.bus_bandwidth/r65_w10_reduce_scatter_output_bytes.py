# expect: fail for reduce_scatter it takes algbw from each rank's output (nbytes / n), though the prompt says nbytes is the input, so algbw and busbw are n times too small
# hint: algbw|nbytes|input|output|per.?rank|reduce.?scatter.*(n|world)|divid
# Wrong: the table's third column says nbytes is the input (n times each rank's output),
# and algbw = nbytes / seconds for every collective; the factor itself is right.
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        moved, factor = nbytes, 2 * (n - 1) / n
    elif collective == "all_gather":
        moved, factor = nbytes, (n - 1) / n
    elif collective == "reduce_scatter":
        moved, factor = nbytes / n, (n - 1) / n  # what each rank gets back
    elif collective == "broadcast":
        moved, factor = nbytes, 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = moved / seconds / 1e9
    return algbw, algbw * factor
