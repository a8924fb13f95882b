# expect: fail the jobs store their products in a dict, and the caller waits only for y's future ("launched last, so done last") before reading both: x's product is never waited for (a thread lane may not have written it yet; a CudaLane's x may still be running on its stream)
# hint: (only|just) (for )?(one|y|the last)|last (one|launched)|both|x('s)? (future|result|product).*(never|not) wait|never wait|not waited|unwaited|fx\.result|wait for (each|both|every)
def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    products = {}

    def square(key, m):
        products[key] = m @ m

    lanes[0].submit(square, "x", x)
    last = lanes[1].submit(square, "y", y)
    last.result()  # y was launched last, so x is done by now
    return products["x"], products["y"]


answer = run_concurrently
