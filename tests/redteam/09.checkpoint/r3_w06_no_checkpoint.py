# expect: fail no checkpoint at all
# hint: nothing was checkpointed
def answer(blocks, x, segments):
    for b in blocks:
        x = b(x)
    return x
