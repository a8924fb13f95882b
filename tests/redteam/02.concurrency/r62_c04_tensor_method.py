# expect: pass submits the bound tensor method (x.matmul with argument x) instead of torch.matmul, builds the futures with a dict keyed by lane index, named by a # name: line
# hint:
# name: squares_side_by_side
def squares_side_by_side(x, y, lanes):
    """(x @ x, y @ y): x squared on lanes[0], y on lanes[1], both launched before either wait."""
    futures = {i: lanes[i].submit(t.matmul, t) for i, t in enumerate((x, y))}
    return futures[0].result(), futures[1].result()
