# expect: fail writes each product back into its input (copy_), mutating the caller's x and y
# hint: changed its input
def run_concurrently(x, y, lanes):
    square_into = lambda m: m.copy_(m @ m)  # noqa: E731  saves an allocation
    fx = lanes[0].submit(square_into, x)
    fy = lanes[1].submit(square_into, y)
    return fx.result(), fy.result()


answer = run_concurrently
