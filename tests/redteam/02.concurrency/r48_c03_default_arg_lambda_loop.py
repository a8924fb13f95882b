# expect: pass a for loop of lambdas with the input bound as a default argument, operator.matmul inside, results waited in a second loop
# hint:
import operator


def run_concurrently(x, y, lanes):
    futures = []
    for i, t in enumerate((x, y)):
        futures.append(lanes[i].submit(lambda t=t: operator.matmul(t, t)))  # t bound now
    results = []
    for f in futures:
        results.append(f.result())
    return tuple(results)


answer = run_concurrently
