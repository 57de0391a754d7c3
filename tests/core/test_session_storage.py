"""The session file: atomic writes, round trips, and clear refusals that change nothing."""
import json
import zipfile

import numpy as np
import pytest

from robust_subspace_lab.core.session import storage
from robust_subspace_lab.core.session.storage import SessionFileError


def test_round_trip_with_arrays(tmp_path):
    session = {"data": {"kind": "builtin", "name": "faces"}, "runs": [{"method": "pca-gm", "p": 0.3}]}
    X = np.arange(12.0).reshape(3, 4)
    path = storage.write_session_file(tmp_path / "s.rsl", session, {"X": X})
    back, arrays = storage.read_session_file(path)
    assert back == session
    np.testing.assert_array_equal(arrays["X"], X)
    assert [p.name for p in tmp_path.iterdir()] == ["s.rsl"]      # no temporary left behind


def test_a_newer_version_is_refused_with_a_message(tmp_path):
    path = tmp_path / "new.rsl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("session.json", json.dumps({"format": storage.FORMAT, "version": storage.FORMAT_VERSION + 1,
                                                "app_version": "9.0", "session": {}}))
    with pytest.raises(SessionFileError, match="newer version"):
        storage.read_session_file(path)


@pytest.mark.parametrize("content", [b"not a zip at all", b"PK\x03\x04broken"])
def test_broken_files_are_refused(tmp_path, content):
    path = tmp_path / "broken.rsl"
    path.write_bytes(content)
    with pytest.raises(SessionFileError, match="broken.rsl"):
        storage.read_session_file(path)


def test_a_zip_that_is_not_a_session_is_refused(tmp_path):
    path = tmp_path / "other.rsl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(SessionFileError, match="not a Robust Subspace Lab session"):
        storage.read_session_file(path)


def test_a_failed_write_keeps_the_old_file(tmp_path):
    path = storage.write_session_file(tmp_path / "s.rsl", {"a": 1})
    with pytest.raises(SessionFileError):
        storage.write_session_file(path, {"a": float("nan")})      # not plain JSON data
    assert storage.read_session_file(path)[0] == {"a": 1}


def test_folder_hash_sees_content_not_location(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for d in (a, b):
        (d / "sub").mkdir(parents=True)
        (d / "x.png").write_bytes(b"123")
        (d / "sub" / "y.png").write_bytes(b"456")
    assert storage.folder_hash(a) == storage.folder_hash(b)
    (b / "x.png").write_bytes(b"124")
    assert storage.folder_hash(a) != storage.folder_hash(b)
