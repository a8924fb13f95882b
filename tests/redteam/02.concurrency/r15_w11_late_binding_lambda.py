# expect: fail lambdas in a comprehension capture the loop variable late: a lane that runs its fn after the loop computes y @ y twice
# hint: late|closure|lambda|loop variable|twice|both .{0,30}y|wrong (value|result)|mismatch|differ|not (equal|close)|incorrect|expected .{0,40}x ?@ ?x|value
def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = [lane.submit(lambda: m @ m) for lane, m in zip(lanes, (x, y))]
    xx, yy = (f.result() for f in futures)
    return xx, yy


answer = run_concurrently
