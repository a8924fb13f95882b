# expect: fail computes x @ x in the caller's thread while lanes[1] does y @ y, instead of submitting it to lanes[0]
# hint: caller|calling thread|main thread|own thread\b|not (on|through|to) (a |the )?lane|outside (the |a )?lane|lanes\[0\] (is |was )?(never|not|unused)|never submit
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y): y @ y on lanes[1]; meanwhile this thread does x @ x itself."""
    pending = lanes[1].submit(torch.matmul, y, y)  # starts at once on the second lane
    xx = x @ x  # overlaps with the second lane's work
    return xx, pending.result()
