import hashlib


def ring_hash(text):
    return int.from_bytes(hashlib.md5(text.encode()).digest()[:8], "big")


class HashRing:
    def __init__(self, vnodes=100):
        self.nodes = []

    def add_node(self, node):
        if node not in self.nodes:
            self.nodes.append(node)
            self.nodes.sort()

    def remove_node(self, node):
        self.nodes.remove(node)

    def get_node(self, key):
        if not self.nodes:
            raise KeyError(key)
        return self.nodes[ring_hash(key) % len(self.nodes)]
