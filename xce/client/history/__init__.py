"""bhist and bacct: job histories, time windows and accounting."""
