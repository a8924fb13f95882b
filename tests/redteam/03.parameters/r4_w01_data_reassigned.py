# expect: fail net[0].weight.data = net[0].weight.data * 0.5: same Parameter object, but new memory, not in place
# hint: in place|in-place|data_ptr|memory|storage|\.data|mul_
def halve(net):
    net[0].weight.data = net[0].weight.data * 0.5
def save(net, path):
    import torch
    torch.save(net.state_dict(), path)
def load(make_net, path, device):
    import torch
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net
answer = (halve, save, load)
