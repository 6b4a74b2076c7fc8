"""``holdem replay``: folders, PokerStars files, cents, the odd-chip convention, no stacks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from phh_corpus import corpus_texts
from test_cli import GOOD, run

DATA = Path(__file__).parent / "data" / "pokerstars"
ODD = "phh/pluribus/102/0.phh"  # splits an odd chip in halves (tests/test_phh_corpus.py)
STARS = "(read as PokerStars text, as every .txt file; PHH files are .phh or .phhs)"


def test_a_folder_replays_phh_phhs_and_pokerstars_files_recursively(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "good.phh").write_text(GOOD)
    (tmp_path / "a" / "b" / "two.phhs").write_text(f"[1]\n{GOOD}\n[2]\n{GOOD}")
    shutil.copy(DATA / "cash-limits.txt", tmp_path / "a" / "b" / "stars.txt")
    (tmp_path / "a" / "notes.md").write_text("not a hand")
    r = run("replay", str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "5 of 5 hands replayed exactly; 0 failed" in r.stdout
    assert f"ok        {tmp_path / 'a' / 'b' / 'stars.txt'}#208099887766" in r.stdout
    assert "notes.md" not in r.stdout


def test_pokerstars_cents_and_rake(tmp_path: Path) -> None:
    r = run("replay", "-v", str(DATA / "cash-nl-cents.txt"))
    assert r.returncode == 0, r.stdout
    # dollars in, dollars out: hand 3 splits $1.77 as $0.89 / $0.88 (the odd cent, R32)
    assert "#208012345673  final stacks 17.91 10.47 16.79 9.53 3.97" in r.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text((DATA / "cash-nl-cents.txt").read_text().replace(
        "Hero collected $0.89 from pot", "Hero collected $0.90 from pot"))
    r = run("replay", "-q", str(bad))
    assert r.returncode == 1
    assert f"MISMATCH  {bad}#208012345673: p3 ends with 16.79, the file says 16.8" in r.stdout


def test_no_stacks_to_compare(tmp_path: Path) -> None:
    f = tmp_path / "nostacks.phh"
    f.write_text(GOOD.replace("finishing_stacks = [102, 98, 100]\n", ""))
    r = run("replay", str(f))
    assert r.returncode == 0
    assert f"replayed  {f}: no stacks to compare" in r.stdout
    assert "0 of 1 hands replayed exactly; 1 replayed, no stacks to compare; 0 failed" in r.stdout
    # -v ("print every hand's final stacks") printed none for it, where they help the most
    r = run("replay", "-v", str(f))
    assert f"replayed  {f}: no stacks to compare  final stacks 102 98 100" in r.stdout


def test_the_odd_chip_is_named_counted_apart_and_reproduced(tmp_path: Path) -> None:
    text = dict(corpus_texts("phh/pluribus/102/"))[ODD]
    f = tmp_path / "odd.phh"
    f.write_text(text)
    (tmp_path / "good.phh").write_text(GOOD)
    r = run("replay", str(tmp_path))
    assert r.returncode == 0, r.stdout
    assert (f"ODD CHIP  {f}: the file splits the odd chip (R32 gives it whole to the first "
            "winner left of the button): p1 ends with") in r.stdout
    assert "--chip-unit 0.5 reproduces the file" in r.stdout
    assert ("1 of 2 hands replayed exactly; 1 split the odd chip (R32 differs, not a failure); "
            "0 failed") in r.stdout
    r = run("replay", "--chip-unit", "0.5", str(f))
    assert r.returncode == 0 and "1 of 1 hands replayed exactly; 0 failed" in r.stdout


def test_quiet_prints_only_the_failures_and_the_total(tmp_path: Path) -> None:
    """``replay -q`` printed the ODD CHIP line of a file that splits the odd chip, which is
    not a failure: only the failures and the total, as its help says."""
    (tmp_path / "odd.phh").write_text(dict(corpus_texts("phh/pluribus/102/"))[ODD])
    (tmp_path / "good.phh").write_text(GOOD)
    bad = tmp_path / "stacks.phh"
    bad.write_text(GOOD.replace("[102, 98, 100]", "[100, 100, 100]"))
    r = run("replay", "-q", str(tmp_path))
    assert r.returncode == 1 and r.stderr == ""
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"MISMATCH  {bad}: ")
    assert lines[1] == ("1 of 3 hands replayed exactly; 1 split the odd chip (R32 differs, not "
                        "a failure); 1 failed")


def test_bad_chip_unit() -> None:
    r = run("replay", "--chip-unit", "half", str(DATA / "cash-limits.txt"))
    assert r.returncode == 2 and "--chip-unit 'half' is not a number" in r.stderr
    assert r.stderr.count("\n") == 1


@pytest.mark.parametrize("unit", ["0", "-1", "-0.5", "0.000"])
def test_a_chip_unit_that_is_not_positive_names_the_option(unit: str) -> None:
    """Used to say 'chip_unit must be positive', the Python parameter's name."""
    r = run("replay", f"--chip-unit={unit}", str(DATA / "cash-limits.txt"))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"holdem replay: error: --chip-unit must be positive, not {unit!r} "
                        "(give one like 1, 0.5 or 0.01)\n")


def test_a_bad_pokerstars_hand_does_not_stop_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text((DATA / "cash-nl-cents.txt").read_text().replace(
        "fishy_joe: folds\nHero: folds", "fishy_joe: dances\nHero: folds"))
    r = run("replay", str(bad))
    assert r.returncode == 1
    assert (f"ERROR     {bad}: hand #208012345672, line 59: not a PokerStars action: "
            "'fishy_joe: dances'") in r.stdout
    assert "2 of 3 hands replayed exactly; 1 failed" in r.stdout


def test_a_phhs_hand_is_named_by_its_table_key_in_every_line(tmp_path: Path) -> None:
    # the label of an ok line and the error of a bad table name the same [key] (keys need
    # not be 1, 2, ...), so a reader can search the file for it
    f = tmp_path / "s.phhs"
    f.write_text(f"[first]\n{GOOD}\n['hand two']\n{GOOD.replace('min_bet = 2', 'min_bet = -2')}"
                 f"\n[3]\n{GOOD}")
    r = run("replay", str(f))
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    assert lines[0] == f"ok        {f}[first]"
    assert lines[1].startswith(f"ERROR     {f}[hand two]: ")
    assert lines[2] == f"ok        {f}[3]"
    r = run("stats", str(f))
    assert r.returncode == 2
    assert r.stderr.startswith(f"holdem stats: error: {f}[hand two]: ")


def test_a_folders_text_files_that_are_not_pokerstars_are_skipped(tmp_path: Path) -> None:
    # notes.txt in a folder of hands was replayed and counted as a failed hand
    shutil.copy(DATA / "cash-limits.txt", tmp_path / "stars.txt")
    (tmp_path / "notes.txt").write_text("session notes: tilted after hand 3\n")
    r = run("replay", str(tmp_path))
    assert r.returncode == 0, r.stdout
    assert "notes.txt" not in r.stdout and "2 of 2 hands replayed exactly; 0 failed" in r.stdout
    # named on its own: no hand in it is bad input (exit code 2), not a failed hand (exit 1)
    named = run("replay", str(tmp_path / "notes.txt"))
    assert named.returncode == 2 and named.stdout == ""
    assert named.stderr == (f"holdem replay: error: no hands in the given files: "
                            f"{tmp_path / 'notes.txt'} holds no hand {STARS}\n")


def test_pokerstars_text_on_stdin_is_replayed(tmp_path: Path) -> None:
    # '-' was always read as PHH: "not valid TOML"
    text = (DATA / "cash-limits.txt").read_text()
    r = run("replay", "-", stdin=text)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok        <stdin>#208011112222" in r.stdout
    assert "2 of 2 hands replayed exactly; 0 failed" in r.stdout
    stats = run("stats", "-", stdin=text)
    assert stats.returncode == 0, stats.stderr
    exported = run("export", str(DATA / "cash-limits.txt"))
    assert exported.returncode == 2
    assert "PokerStars text, not PHH: export reads PHH files" in exported.stderr


def test_the_output_does_not_depend_on_the_workers(tmp_path: Path) -> None:
    """``holdem replay --workers N`` replays chunks of hands in worker processes and prints
    their lines in the files' order: the same bytes for any N. Every kind of outcome is in the
    files: exact, a mismatch, an illegal action, a bad table, a bad PokerStars hand, a file
    that cannot be read, no stacks to compare, and enough hands for several chunks."""
    from holdem.cli._hands import CHUNK_HANDS

    mismatch = GOOD.replace("[102, 98, 100]", "[102, 97, 101]")
    illegal = GOOD.replace("'p1 cbr 10'", "'p1 cbr 1'")  # below the minimum raise
    unknown = GOOD.replace("finishing_stacks = [102, 98, 100]\n", "")
    bad_field = GOOD.replace("min_bet = 2", "min_bet = -2")
    hands = [GOOD] * (CHUNK_HANDS + 10)
    hands[3], hands[CHUNK_HANDS - 1], hands[CHUNK_HANDS], hands[CHUNK_HANDS + 4] = (
        mismatch, illegal, bad_field, unknown)
    (tmp_path / "a.phhs").write_text("".join(f"[{i}]\n{h}\n" for i, h in enumerate(hands, 1)))
    (tmp_path / "b.phhs").write_bytes(b"[1]\nvariant = 'NT'\xff\n")  # not UTF-8
    (tmp_path / "c.txt").write_text((DATA / "cash-nl-cents.txt").read_text().replace(
        "fishy_joe: folds\nHero: folds", "fishy_joe: dances\nHero: folds"))
    (tmp_path / "d.phh").write_text(GOOD)
    outputs = {w: run("replay", str(tmp_path), "--workers", w) for w in ("1", "2", "3")}
    r = outputs["1"]
    assert r.returncode == 1 and r.stderr == ""
    assert outputs["2"].stdout == outputs["3"].stdout == r.stdout
    lines = r.stdout.splitlines()
    # the bad table is one failed hand: the others of its file are replayed
    assert lines[-1] == (f"{CHUNK_HANDS + 9} of {CHUNK_HANDS + 15} hands replayed exactly; "
                         "1 replayed, no stacks to compare; 5 failed")
    a = tmp_path / "a.phhs"
    assert lines[3].startswith(f"MISMATCH  {a}[4]: ")
    assert lines[CHUNK_HANDS - 1].startswith(f"ILLEGAL   {a}[{CHUNK_HANDS}]")
    assert lines[CHUNK_HANDS].startswith(f"ERROR     {a}[{CHUNK_HANDS + 1}]: field 'min_bet'")
    assert lines[CHUNK_HANDS + 4] == f"replayed  {a}[{CHUNK_HANDS + 5}]: no stacks to compare"
    assert lines[CHUNK_HANDS + 10].startswith(f"ERROR     {tmp_path / 'b.phhs'}: byte offset 18 (line 2) "
                                             "is not UTF-8")
    assert "not a PokerStars action: 'fishy_joe: dances'" in lines[CHUNK_HANDS + 12]
    assert lines[-2] == f"ok        {tmp_path / 'd.phh'}"
    quiet = run("replay", "-q", str(tmp_path), "--workers", "2")
    assert quiet.stdout.splitlines() == [line for line in lines if not line.startswith(
        ("ok", "replayed"))]


def test_a_file_named_pokerstars_is_read(tmp_path: Path) -> None:
    """``holdem replay "PokerStars 2020.txt"``: the name was taken for the text of a hand
    (a str that starts with "PokerStars" is text for holdem.pokerstars.parse)."""
    shutil.copy(DATA / "cash-limits.txt", tmp_path / "PokerStars 2020.txt")
    r = run("replay", "PokerStars 2020.txt", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok        PokerStars 2020.txt#208099887766" in r.stdout


SAVED = f"[1]\n{GOOD}\n[2]\n{GOOD}"  # PHH, saved under a .txt name below


@pytest.mark.parametrize(("name", "text"), [
    ("notes.txt", "session notes: tilted after hand 3\n\nmore notes\n"),
    ("saved.txt", SAVED), ("blank.txt", " \n\n\t\n"), ("empty.phh", ""),
    ("blank.phh", "\n  \n# only a comment\n"), ("empty.phhs", ""), ("-", ""), ("-", " \n\n"),
])
def test_a_file_without_a_hand_holds_no_hand(tmp_path: Path, name: str, text: str) -> None:
    """A file without any hand (empty, blank, or text in which no hand starts) was replayed
    as failed hands, exit code 1: ``notes.txt`` as "0 of 1 hands; 1 failed", a PHH file saved
    as .txt as one ERROR a line, ``empty.phh`` (and empty standard input) as a hand without
    'variant'. It holds no hand: exit code 2 when no file has one, naming the file and what it
    was read as; next to a file with hands it adds none (and no failure) and is named on
    standard error (it was passed over in silence)."""
    f = tmp_path / name
    if name != "-":
        f.write_text(text)
    read_as = ("(read as PHH and as PokerStars text)" if name == "-" else
               STARS if name.endswith(".txt") else "(read as PHH)")
    shown = "standard input" if name == "-" else str(f)
    r = run("replay", str(f) if name != "-" else "-", stdin=text)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"holdem replay: error: no hands in the given files: {shown} holds no "
                        f"hand {read_as}\n")
    good = tmp_path / "good.phh"
    good.write_text(GOOD)
    r = run("replay", str(good), str(f) if name != "-" else "-", stdin=text)
    assert r.returncode == 0 and r.stderr == f"skipped: {shown} holds no hand {read_as}\n"
    assert r.stdout == f"ok        {good}\n1 of 1 hands replayed exactly; 0 failed\n"


def test_files_without_hands_in_stats_and_export(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no hand here\n")
    (tmp_path / "empty.phh").write_text("")
    r = run("stats", "notes.txt", "empty.phh", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr == ("holdem stats: error: no hands in the given "
                                              f"files: notes.txt holds no hand {STARS}; nor "
                                              "does the other file\n")
    r = run("export", "-", "empty.phh", "empty.phh", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr == (
        "holdem export: error: no hands in the given files: standard input holds no hand "
        "(read as PHH); nor do the 2 other files\n")
    # beside a file with hands: each file without one is named on standard error
    (tmp_path / "good.phh").write_text(GOOD)
    r = run("stats", "notes.txt", "good.phh", "empty.phh", cwd=tmp_path)
    assert r.returncode == 0 and "\np1 " in r.stdout
    assert r.stderr == (f"skipped: notes.txt holds no hand {STARS}\n"
                        "skipped: empty.phh holds no hand (read as PHH)\n")
    r = run("export", "empty.phh", "good.phh", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith("PokerStars Hand #")
    assert r.stderr == "skipped: empty.phh holds no hand (read as PHH)\n"


def test_lines_before_the_hands_are_still_errors(tmp_path: Path) -> None:
    """A text file that holds hands still reports each line outside them and each bad hand
    (exit code 1), however many lines come before the first hand (more than a chunk of them
    are not held: the file is read again from its start)."""
    from holdem.cli._hands import CHUNK_HANDS

    stars = (DATA / "cash-nl-cents.txt").read_text().replace(
        "fishy_joe: folds\nHero: folds", "fishy_joe: dances\nHero: folds")
    for junk in (2, CHUNK_HANDS + 5):
        f = tmp_path / f"junk{junk}.txt"
        f.write_text("".join(f"note {k}\n" for k in range(1, junk + 1)) + stars)
        r = run("replay", str(f))
        assert r.returncode == 1 and r.stderr == ""
        lines = r.stdout.splitlines()
        assert lines[:junk] == [f"ERROR     {f}: line {k}: not a PokerStars hand history (hands "
                                f"start with 'PokerStars Hand #'): 'note {k}'"
                                for k in range(1, junk + 1)]
        assert "not a PokerStars action: 'fishy_joe: dances'" in lines[junk + 1]
        assert lines[-1] == f"2 of {junk + 3} hands replayed exactly; {junk + 1} failed"
        f.write_text("".join(f"note {k}\n" for k in range(1, junk + 1)))  # and no hand
        r = run("replay", str(f))
        assert r.returncode == 2 and r.stdout == "" and "holds no hand" in r.stderr


@pytest.mark.parametrize("command", ["stats", "export"])
def test_stats_and_export_refuse_a_hand_whose_final_stacks_differ(tmp_path: Path,
                                                                   command: str) -> None:
    """``holdem stats`` printed the engine's winnings for a hand whose file says otherwise
    (``replay`` reports it as MISMATCH, exit 1), ``holdem export`` wrote the engine's stacks,
    the file's dropped, exit 0: now one line, exit 2."""
    bad = tmp_path / "bad.phh"
    bad.write_text(GOOD.replace("finishing_stacks = [102, 98, 100]",
                                "finishing_stacks = [98, 102, 100]"))
    r = run(command, str(bad))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"holdem {command}: error: {bad}: final stacks differ: p1 ends with "
                        "102, the file says 98; p2 ends with 98, the file says 102\n")



def test_export_writes_a_hand_that_splits_the_odd_chip_finer(tmp_path: Path) -> None:
    # not a mismatch (R32 differs, replay's ODD CHIP): exported as before
    (tmp_path / "odd.phh").write_text(dict(corpus_texts("phh/pluribus/102/"))[ODD])
    r = run("export", str(tmp_path / "odd.phh"))
    assert r.returncode == 0 and r.stdout.startswith("PokerStars Hand #"), r.stderr
