class GangAllocator:
    def __init__(self, free):
        self.free = dict(free)
        self.jobs = {}

    def allocate(self, job, pods, gpus_per_pod):
        if sum(self.free.values()) < pods * gpus_per_pod:  # enough GPUs in the cluster
            return None
        taken, placed = [], []
        for _ in range(pods):
            fits = [n for n, f in self.free.items() if f >= gpus_per_pod]
            if fits:
                node = min(fits, key=lambda n: self.free[n])
                self.free[node] -= gpus_per_pod
                taken.append((node, gpus_per_pod))
                placed.append(node)
                continue
            need, first = gpus_per_pod, None  # no single node fits: gather the GPUs from several
            for node, f in self.free.items():
                use = min(f, need)
                if use:
                    self.free[node] -= use
                    taken.append((node, use))
                    first = first or node
                    need -= use
                if not need:
                    break
            placed.append(first)
        self.jobs[job] = taken
        return placed

    def release(self, job):
        for node, gpus in self.jobs.pop(job):
            self.free[node] += gpus
