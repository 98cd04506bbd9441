def kmp_search(text, pattern):
    n, m = len(text), len(pattern)
    found = []
    for i in range(n - m + 1):
        k = 0
        while k < m and text[i + k] == pattern[k]:
            k += 1
        if k == m:
            found.append(i)
    return found
