# expect: fail returns a lazy iterator (itertools.islice), not a list or tuple
# hint: list|tuple|generator|iterator|islice|sequence|len\(|type|index
# Wrong: the prompt asks for a list (or a tuple); an islice object has no len(), cannot be
# indexed (devices[0] in the cell below fails) and is used up after one pass.
import itertools

import d2lgpu


def place_workers(n_workers):
    return itertools.islice(itertools.cycle(d2lgpu.try_all_gpus()), n_workers)


answer = place_workers
