# expect: fail loads with strict=False and a key prefix mismatch ("model." added on save), so nothing is loaded and the model keeps its random weights
# hint: key|strict|missing|unexpected|state_dict|load|value|equal|differ
import torch


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save({f"model.{k}": v for k, v in net.state_dict().items()}, path)


def load_parameters(make_net, path, device):
    net = make_net()
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True), strict=False)
    return net.to(device)


answer = (halve_first_layer, save_parameters, load_parameters)
