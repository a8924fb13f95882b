# expect: fail the products are computed on the caller's thread (in lambda default arguments), lanes only hand back finished values
# hint: caller|calling thread|before (the )?submit|outside (the )?lane|eager|not on (the )?lane|computed (before|already)|default arg
# Wrong: `lambda p=m @ m: p` evaluates m @ m when the lambda is made, on the caller's thread, one
# after the other; the lanes only return values that already exist, so nothing runs concurrently.


def answer(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = []
    for lane, m in zip(lanes, (x, y)):
        # bind the loop variable through a default argument (avoids late binding)...
        futures.append(lane.submit(lambda p=m @ m: p))
    return tuple(f.result() for f in futures)
