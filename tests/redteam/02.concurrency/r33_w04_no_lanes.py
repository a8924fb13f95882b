# expect: fail ignores the lanes and computes both products in the calling thread
# hint: lane|submit
def run_concurrently(x, y, lanes):
    return x @ x, y @ y


answer = run_concurrently
