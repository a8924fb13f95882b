# expect: pass torch.linalg.matrix_power(t, 2) submitted per lane, futures kept in a dict keyed by name, waited after both launches
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    jobs = {
        "x": lanes[0].submit(torch.linalg.matrix_power, x, 2),
        "y": lanes[1].submit(torch.linalg.matrix_power, y, 2),
    }
    # both launched; now collect
    done = {name: fut.result() for name, fut in jobs.items()}
    return done["x"], done["y"]


answer = run_concurrently
