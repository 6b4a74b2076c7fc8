"""The C core's fuzz targets (tests/fuzz/fuzz_*.c) replayed over their committed corpora.

``tools/fuzz.sh`` runs each target under clang's libFuzzer, which searches for inputs that
reach new code, and folds what it finds into ``tests/fuzz/corpus/<target>``. Here every input
of those corpora runs again through the same target, built with the C compiler at hand,
AddressSanitizer and UndefinedBehaviorSanitizer when it has them, and ``tests/fuzz/replay.c``
as its ``main``: a read outside an array, a signed overflow or a failed check (chips not
conserved, a rank not the best of its five-card subsets, a pot shared unevenly...) fails the
test. Each target is also built once with a bug planted in the function it checks, and its
corpus must catch it: the checks are live and the corpus reaches them.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from c_checks import build_c, c_env

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ROOT / "tests" / "fuzz"
TARGETS = {  # target -> the csrc/ files it links (tests/fuzz/targets.txt, as tools/fuzz.sh)
    line.split()[0]: tuple(line.split()[1:])
    for line in (FUZZ / "targets.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
}

# A wrapper per target: the target's calls to one function go to a copy with a bug planted
# (the real function still runs; its result is then spoiled in a way the target must notice).
PLANTED = {
    "eval": ("hd_eval.h", "hd_eval_cards",
             "hd_rank_t hd_eval_cards_planted(const uint8_t *cards, int n)",
             # a seven-card hand with a spade rated one step too strong
             "{ hd_rank_t r = hd_eval_cards(cards, n); int k;\n"
             "  for (k = 0; k < n; k++) if (n == 7 && cards[k] % 4 == 3 && r > 0 && r < 7462)\n"
             "      return (hd_rank_t)(r + 1);\n"
             "  return r; }"),
    "pots": ("hd_pots.h", "hd_split_pots",
             "int hd_split_pots_planted(const int64_t *committed, const uint8_t *folded, "
             "const int32_t *ranks, int n, int button, int64_t dead, const hd_rake_t *rake, "
             "int flop_dealt, hd_pot_result_t *out)",
             # one chip too many paid to the first winner of a split pot
             "{ int code = hd_split_pots(committed, folded, ranks, n, button, dead, rake,\n"
             "                           flop_dealt, out), k, s;\n"
             "  if (code == 0) for (k = 0; k < out->n_pots; k++)\n"
             "      if (out->pots[k].winners & (out->pots[k].winners - 1)) {\n"
             "          for (s = 0; !(out->pots[k].winners >> s & 1); s++) {}\n"
             "          out->payouts[s] += 1; break; }\n"
             "  return code; }"),
    "hand": ("hd_hand.h", "hd_hs_act_rec",
             "void hd_hs_act_rec_planted(const hd_rules_t *g, hd_hstate_t *h, int kind, "
             "int64_t to, hd_record_t *rec)",
             # a call on the turn takes one chip less from the caller's stack
             "{ int street = h->street, i = h->actor; int64_t before = i >= 0 ? h->stacks[i] : 0;\n"
             "  hd_hs_act_rec(g, h, kind, to, rec);\n"
             "  if (kind == HD_CHECK_CALL && street == 2 && i >= 0 && h->stacks[i] < before)\n"
             "      h->stacks[i] += 1; }"),
}


def _build(tmp_path: Path, target: str, main_source: Path) -> Path:
    """The target linked with tests/fuzz/replay.c; sanitized when the compiler can."""
    exe = tmp_path / f"fuzz_{target}"
    sources = [str(main_source), str(FUZZ / "replay.c"),
               *(str(ROOT / "csrc" / f) for f in TARGETS[target])]
    if not build_c(exe, sources, ("-I", str(FUZZ))):
        pytest.fail("no C compiler or no source checkout: the fuzz corpora cannot be replayed")
    return exe


def _corpus(target: str) -> list[str]:
    files = sorted(str(p) for p in (FUZZ / "corpus" / target).iterdir() if p.is_file())
    assert len(files) >= 20, f"tests/fuzz/corpus/{target} holds {len(files)} inputs"
    return files


def _replay(exe: Path, files: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(exe), *files], capture_output=True, text=True, check=False,
                          env=c_env(), timeout=600)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_fuzz_corpus_replays_clean(tmp_path: Path, target: str) -> None:
    files = _corpus(target)
    result = _replay(_build(tmp_path, target, FUZZ / f"fuzz_{target}.c"), files)
    assert result.returncode == 0, result.stdout + result.stderr[-4000:]
    assert result.stdout.split() == ["ok", str(len(files))]


@pytest.mark.parametrize("target", sorted(PLANTED))
def test_fuzz_corpus_catches_a_planted_bug(tmp_path: Path, target: str) -> None:
    header, name, signature, body = PLANTED[target]
    wrapper = tmp_path / f"planted_{target}.c"
    wrapper.write_text(
        f'#include "{header}"\n'
        f"{signature};\n"
        f"#define {name} {name}_planted\n"
        f'#include "fuzz_{target}.c"\n'
        f"#undef {name}\n"
        f"{signature}\n{body}\n")
    result = _replay(_build(tmp_path, target, wrapper), _corpus(target))
    assert result.returncode != 0, f"the {target} corpus did not catch the planted bug"
    assert f"fuzz_{target}: " in result.stderr  # one of the target's checks, not a crash
    assert "ok" not in result.stdout.split()
