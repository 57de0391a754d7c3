"""
Robust PCA on occluded faces
============================

Twenty of the 100 built-in faces get a rectangle of random dots. Plain PCA spends its
eigenfaces on the dots; generalized-mean PCA (PCA-GM, Oh & Kwak, Pattern Recognition 2016)
down-weights the occluded faces and keeps eigenfaces close to those of the clean faces. The
error is paper 000's eq. (14): the average distance between each clean face and the
reconstruction of its corrupted version (grey levels 0–255).
"""
import matplotlib.pyplot as plt

from robust_subspace_lab.core import catalogue, corruption, datasets, metrics

faces = datasets.lfw_faces()                                    # (100, 25, 25), grey levels 0–255
# the app's opening lesson: 20 % of the faces, one rectangle of random 0/255 dots, sides 50–80 %
data = corruption.corrupt(faces, "rectangles", fraction=0.2, size_min=0.5, size_max=0.8,
                          content="dots", seed=0)
shape = faces.images.shape[1:]

fits = {key: catalogue.create(key, n_components=5).fit(data.X) for key in ("pca", "pca-gm")}
errors = {key: metrics.reconstruction_error(est.components_, data.X, data.X_clean)
          for key, est in fits.items()}

fig, axes = plt.subplots(3, 5, figsize=(7.5, 4.8))
for j in range(5):
    axes[0, j].imshow(data.images[data.outliers][j], cmap="gray", vmin=0, vmax=255)
    for i, key in enumerate(fits, start=1):
        axes[i, j].imshow(fits[key].components_[j].reshape(shape), cmap="gray")
for ax in axes.ravel():
    ax.set_xticks([])
    ax.set_yticks([])
axes[0, 0].set_ylabel("occluded")
axes[1, 0].set_ylabel(f"PCA\n{errors['pca']:.0f}")
axes[2, 0].set_ylabel(f"PCA-GM\n{errors['pca-gm']:.0f}")
fig.suptitle("Eigenfaces (rows 2–3) and eq. 14 error (left): lower is closer to the clean faces")
fig.tight_layout()

print({key: round(err, 1) for key, err in errors.items()})
