class GangAllocator:
    """All-or-nothing placement of a job's pods onto nodes' free GPUs.

    GangAllocator(free): `free` maps node name -> free GPUs; `self.free` stays up to date.
    allocate(job, pods, gpus_per_pod) -> list of node names (one per pod), or None with nothing taken.
    release(job): give the job's GPUs back; KeyError for a job that holds none.
    """

    def __init__(self, free):
        self.free = dict(free)

    def allocate(self, job, pods, gpus_per_pod):
        # TODO: place pod by pod on the best-fit node; if one pod cannot be placed, undo and return None
        raise NotImplementedError("allocate")

    def release(self, job):
        raise NotImplementedError("release")
