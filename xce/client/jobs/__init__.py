"""bjobs and the job queries: selection, values, and every bjobs layout."""
