# expect: pass two comprehensions (submit all with bound m.matmul, then result all), tuple returned
# hint: 
def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = [lane.submit(m.matmul, m) for lane, m in zip(lanes[:2], (x, y))]  # launch both
    return tuple(future.result() for future in futures)  # then wait for both


answer = run_concurrently
