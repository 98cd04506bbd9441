def prefix_function(p):
    """pi[i] = length of the longest proper prefix of p[:i+1] that is also its suffix."""
    pi = [0] * len(p)
    k = 0
    for i in range(1, len(p)):
        while k > 0 and p[i] != p[k]:
            k = pi[k - 1]
        if p[i] == p[k]:
            k += 1
        pi[i] = k
    return pi


def kmp_search(text, pattern):
    m = len(pattern)
    pi = prefix_function(pattern)
    found = []
    j = 0
    for i in range(len(text)):
        while j > 0 and text[i] != pattern[j]:
            j = pi[j - 1]
        if text[i] == pattern[j]:
            j += 1
        if j == m:
            found.append(i - m + 1)
            j = pi[m - 1]
    return found
