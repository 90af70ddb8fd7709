"""The benches' options as a newcomer gives them: 0 iterations skip a part (as --long-iterations 0
does), a count that cannot run is refused before any work, and a simulated truth refuses the
simulator's question-form options rather than ignoring them."""

from __future__ import annotations

from pathlib import Path

import pytest

from kglens_tui.bench.sampling_study import load_ground_truth
from kglens_tui.cli.main import main
from kglens_tui.kg.importers import import_kg

ENGINE = ["bench", "engine", "--sizes", "100", "--iterations", "1", "--warmup", "0"]


def test_engine_bench_throughput_iterations_0_skips_the_throughput_part(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main([*ENGINE, "--throughput-iterations", "0", "--long-iterations", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "engine total" in out
    assert "throughput" not in out.lower() and "error" not in err


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--throughput-iterations", "-1", "--throughput-iterations must be 0 (skip) or more"),
        ("--long-iterations", "-1", "--long-iterations must be 0 (skip) or at least 21"),
        ("--long-iterations", "5", "--long-iterations must be 0 (skip) or at least 21"),
        ("--iterations", "0", "--iterations must be at least 1"),
    ],
)
def test_engine_bench_refuses_a_count_it_cannot_run_before_any_work(
    capsys: pytest.CaptureFixture[str], flag: str, value: str, message: str
) -> None:
    assert main([*ENGINE, flag, value]) == 2
    out, err = capsys.readouterr()
    assert err.strip().startswith(f"error: {message}") and "\n" not in err.strip()
    assert "engine total" not in out


def _sampling(db: Path, tiny_kg_dir: Path) -> list[str]:
    assert main(["--db", str(db), "kg", "import", str(tiny_kg_dir), "--name", "tiny"]) == 0
    return ["--db", str(db), "bench", "sampling", "--kg", "tiny", "--settings", "as-is",
            "--seeds", "1", "--batch-size", "2", "--k", "2", "--methods", "top-k",
            "--no-continuous"]  # fmt: skip


def test_sampling_bench_throughput_iterations_0_skips_the_throughput_part(
    tmp_path: Path, tiny_kg_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _sampling(tmp_path / "ws.db", tiny_kg_dir)
    capsys.readouterr()
    code = main([*base, "--throughput-iterations", "0"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Requests to match brute force" in " ".join(out.split())
    assert "throughput" not in out.lower()
    assert main([*base, "--throughput-iterations", "-2"]) == 2
    out, err = capsys.readouterr()
    assert err.strip() == "error: --throughput-iterations must be 0 (skip) or more (got -2)"
    assert "Requests to match" not in out


@pytest.mark.parametrize(
    "spec, named",
    [
        ("sim:3,wh_penalty=0", "not wh_penalty:"),
        ("sim:refusal_rate=0.5,yes_bias=1", "not refusal_rate, yes_bias:"),
        ("simulated:1,nosuch=2", "not nosuch:"),
    ],
)
def test_a_simulated_truth_refuses_the_simulators_options_naming_them(
    conn, tiny_kg_dir: Path, spec: str, named: str
) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    with pytest.raises(ValueError, match="--ground-truth sim takes a seed only") as caught:
        load_ground_truth(conn, spec, "tiny", None)
    assert named in str(caught.value) and "\n" not in str(caught.value)


def test_a_simulated_truth_still_takes_its_seed(conn, tiny_kg_dir: Path) -> None:
    import_kg(conn, tiny_kg_dir, "tiny")
    plain = load_ground_truth(conn, "sim", "tiny", None)
    assert plain.source == load_ground_truth(conn, "sim:0", "tiny", None).source
    assert load_ground_truth(conn, "sim:3", "tiny", None).source.startswith("sim:3 on tiny")
    for bad in ("sim:x", "sim:1,2"):
        with pytest.raises(ValueError, match="must be an integer"):
            load_ground_truth(conn, bad, "tiny", None)


def test_bench_sampling_says_the_refusal_in_one_line(
    tmp_path: Path, tiny_kg_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _sampling(tmp_path / "ws.db", tiny_kg_dir)
    capsys.readouterr()
    assert main([*base, "--ground-truth", "sim:1,wh_penalty=0"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --ground-truth sim takes a seed only") and "\n" not in err
