# expect: pass launches y @ y on lanes[1] first and x @ x on lanes[0] second, passing a lambda and its input to submit, then waits for them in the opposite order
# hint:
def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    second = lanes[1].submit(lambda m: m @ m, y)  # the input travels with the call
    first = lanes[0].submit(lambda m: m @ m, x)
    xx = first.result()
    yy = second.result()
    return xx, yy


answer = run_concurrently
