"""Low-rank + sparse (convex) methods: PCP, Outlier Pursuit, CRPCA-OM (paper 001 Alg. 3). (In progress.)"""
