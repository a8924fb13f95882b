# expect: fail lambda in a loop captures the loop variable: a lane that runs it later squares y twice
# hint: lambda|late.?bind|closure|loop variable|captur|y @ y twice|both (lanes|products)
def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = []
    for lane, t in zip(lanes, (x, y)):
        futures.append(lane.submit(lambda: t @ t))  # launch both...
    return tuple(f.result() for f in futures)  # ...then wait for both


answer = run_concurrently
