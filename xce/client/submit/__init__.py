"""bsub: building a submission, bsub -pack, and bsub -K waiting."""
