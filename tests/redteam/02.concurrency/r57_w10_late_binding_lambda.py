# expect: fail the lambdas handed to the lanes close over the loop variable m, so a lane that runs its function after the loop has moved on computes y @ y in place of x @ x
# hint: lambda|closure|late|loop variable|bind|captur|x @ x|y @ y|wrong (value|result|product)|differ|value
def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = []
    for lane, m in zip(lanes, (x, y)):
        futures.append(lane.submit(lambda: m @ m))
    return tuple(f.result() for f in futures)


answer = run_concurrently
