"""A NumPy transcription of the Truncated Cauchy NMF loop of the authors' public MATLAB code
(Guan et al. 2019; `CauchyNMF.m` with WEI_TYPE 'tgv' (global three-sigma), SCALE -1 (Nagy),
ALG_TYPE 'ogm', LPZ_TYPE 'plain'), written from the project's extraction of that code, used
only as a test oracle: TruncatedCauchyNMF with its authors'-settings switches must follow it
from the same start.

Orientation as the code: V (m features × n samples) ≈ W (m × r) H (r × n).
"""
from __future__ import annotations

import numpy as np

INN_MIN, INN_MAX = 20, 500          # inner iteration bounds of CauchyNMF.m


def nagy(gamma_prev: float, R: np.ndarray) -> float:
    """CauchySCL 'nagy': x = γ², started from 4γ_prev², x ← x·(N / Σ 1/(1 + a/x) − 1) until the
    factor is within 1e-10 of 1, at most 100 passes."""
    a = R.ravel() ** 2
    N = a.size
    x = 4.0 * gamma_prev ** 2
    for _ in range(100):
        div = N / np.sum(1.0 / (1.0 + a / x)) - 1.0
        if abs(div - 1.0) < 1e-10:
            break
        x *= div
    return float(np.sqrt(x))


def outliers(A: np.ndarray) -> np.ndarray:
    """CauchyOutlIndex 'global': |A − mean(x)| >= 3 std(x) (ddof 1), x = A[A <= median(A)]."""
    x = A[A <= np.median(A)]
    return np.abs(A - x.mean()) >= 3.0 * x.std(ddof=1)


def pgn(Y: np.ndarray, G: np.ndarray) -> float:
    """GetStopCriterion rule 1: ‖G[(G < 0) | (Y > 0)]‖₂."""
    return float(np.linalg.norm(G[(G < 0) | (Y > 0)]))


def ogm(V, W, H0, Q, tol):
    """CauchyOGM: Nesterov's method on all columns of H at once, exact per-column Lipschitz
    constants ‖Wᵀ diag(Q_j) W‖₂, stopped jointly (from inner iteration 20) when the projected
    gradient at the search point falls below tol × its start; returns (max(0, Y), iterations)."""
    L = np.linalg.eigvalsh(np.einsum("mi,mj,mn->nij", W, W, Q))[:, -1]
    Y = H0.copy()
    Hp = H0.copy()
    G = W.T @ (Q * (W @ Y - V))
    a0 = 1.0
    p0 = pgn(Y, G)
    for k in range(INN_MAX):
        H1 = np.maximum(0.0, Y - G / L[None, :])
        a1 = (1.0 + np.sqrt(4.0 * a0 * a0 + 1.0)) / 2.0
        Y = H1 + (a0 - 1.0) * (H1 - Hp) / a1
        Hp, a0 = H1, a1
        G = W.T @ (Q * (W @ Y - V))
        if k >= INN_MIN - 1 and pgn(Y, G) < p0 * tol:
            break
    return np.maximum(0.0, Y), k + 1


def run(V, W, H, n_iter, tol_inner=1e-2):
    """``n_iter`` outer iterations of CauchyNMF.m from (W, H) (no initialisation step: the same
    start as the estimator's). Returns a list of dicts, one per iteration (0 = the start):
    W, H, γ, the truncated mask of the weights that iteration used (None at 0)."""
    W, H = W.copy(), H.copy()
    tolH = tolW = max(tol_inner, 1e-3)
    R = V - W @ H
    gamma = nagy(10.0, R)
    out = [{"W": W.copy(), "H": H.copy(), "gamma": gamma, "truncated": outliers(np.abs(R))}]
    for _ in range(n_iter):
        Q = 1.0 / ((R / gamma) ** 2 + 1.0)
        Q[outliers(np.abs(R))] = 0.0
        H, kH = ogm(V, W, H, Q, tolH)
        if kH <= 10:
            tolH /= 10
        Wt, kW = ogm(V.T, H.T, W.T, Q.T, tolW)
        W = Wt.T
        if kW <= 10:
            tolW /= 10
        R = V - W @ H
        d = W.max(axis=0)
        H = H * d[:, None]
        W = W / d[None, :]
        gamma = nagy(gamma, R)
        out.append({"W": W.copy(), "H": H.copy(), "gamma": gamma,
                    "truncated": outliers(np.abs(R))})
    return out
