def comm_breakdown(compute, comm):
    """Total, exposed (not covered by compute) and hidden share of communication time on one timeline."""
    # TODO: 1. reject intervals with end < start (ValueError)
    #       2. merge each list into a sorted union of disjoint intervals
    #       3. intersect the two unions with two pointers
    #       4. comm_time, exposed_comm = comm_time - covered, overlap_fraction (0.0 without comm)
    raise NotImplementedError("comm_breakdown")
