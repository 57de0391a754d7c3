"""Sparse and ℓ1 PCA: PCA-L1 (Kwak 2008), RSPCA (paper 002), sPCA-rSVD and GPower. (In progress.)"""
