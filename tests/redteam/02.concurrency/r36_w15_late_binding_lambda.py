# expect: fail lambdas made in a loop capture the loop variable, not its value: on thread lanes x's lane may compute y @ y (a race; on GPU lanes, which call fn in submit, it is right)
# hint: lambda|closure|late|binding|loop variable|wrong value|y @ y|x @ x
def run_concurrently(x, y, lanes):
    futures = []
    for lane, m in zip(lanes, (x, y)):
        futures.append(lane.submit(lambda: m @ m))
    return tuple(f.result() for f in futures)


answer = run_concurrently
