# expect: fail splits each product into two row halves submitted separately and joins them with torch.cat in the caller: twice the launches, an extra full copy outside the lanes, and an extra wait
# hint: cat|split|halves|copy|extra|caller|outside|launches|exactly one product
import torch


def _rows(a, b):
    return a @ b


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    hx, hy = x.shape[-2] // 2, y.shape[-2] // 2
    futures = [
        lanes[0].submit(_rows, x[..., :hx, :], x),
        lanes[0].submit(_rows, x[..., hx:, :], x),
        lanes[1].submit(_rows, y[..., :hy, :], y),
        lanes[1].submit(_rows, y[..., hy:, :], y),
    ]
    parts = [f.result() for f in futures]
    return torch.cat(parts[:2], dim=-2), torch.cat(parts[2:], dim=-2)


answer = run_concurrently
